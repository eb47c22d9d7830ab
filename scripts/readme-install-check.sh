#!/usr/bin/env bash
# Runs the README's install commands verbatim, as a new user would, and ends with a working
# `bashguard doctor`. The commands are the ```sh block right after the line
#   <!-- ci: install-commands -->
# in README.md; its `REPO=...` line (the repository's URL) is the one line replaced, by a file://
# URL of a bare clone of this checkout, so that nothing is fetched from the network but npm's
# registry. Everything happens under a scratch directory: HOME, npm's global prefix (in the scratch
# HOME's .npmrc, where `npm config set prefix DIR` puts it: as an environment variable it would
# also move the clone's own `npm install` that `npm pack git+URL` runs) and npm's cache.
#
# usage: scripts/readme-install-check.sh [--user NAME] [--no-toolchain] [--expect-parser native|wasm]
#   --user NAME     run the commands as that unprivileged user (created with useradd when missing;
#                   needs root), through runuser
#   --no-toolchain  no make, C/C++ compiler or python3 on PATH, and npm_config_nodedir pointing
#                   nowhere: node-gyp cannot build anything
#   --readme FILE   the README to read (default: the checkout's README.md)
#   --without-prebuilds  install from a commit of this checkout without prebuilds/ (a platform
#                   bashguard ships no binary for; with --no-toolchain: the WASM fallback)
#   --expect-parser which parser doctor must report in use (default native: the prebuilt or built
#                   tree export)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
user='' no_toolchain='' without_prebuilds='' expect=native readme="$repo/README.md"
while [ $# -gt 0 ]; do
  case $1 in
    --readme) readme=$2; shift 2 ;;
    --user) user=$2; shift 2 ;;
    --no-toolchain) no_toolchain=1; shift ;;
    --without-prebuilds) without_prebuilds=1; shift ;;
    --expect-parser) expect=$2; shift 2 ;;
    *) echo "readme-install-check: unknown argument $1" >&2; exit 2 ;;
  esac
done
label="${user:-$(id -un)}${no_toolchain:+, no toolchain}${without_prebuilds:+, no prebuilt binary}"
say() { printf 'readme-install-check (%s): %s\n' "$label" "$*" >&2; }

block=$(awk '/<!-- ci: install-commands -->/ { m = 1; next } m == 1 && /^```sh$/ { m = 2; next } m == 1 && !/^[[:space:]]*$/ { exit } m == 2 && /^```$/ { exit } m == 2' "$readme")
if [ -z "$block" ]; then
  say "README.md has no \`\`\`sh block right after a <!-- ci: install-commands --> line"
  exit 1
fi
if [ "$(grep -c '^REPO=' <<<"$block")" != 1 ]; then
  say "the marked block must set REPO=<the repository's URL> on exactly one line"
  exit 1
fi

scratch=$(mktemp -d /var/tmp/bashguard-readme-XXXXXX)
chmod 755 "$scratch"
# On failure, npm's own logs say why (`npm pack --silent` prints no error of its own).
trap 'rc=$?; [ $rc = 0 ] || for f in "$scratch"/home/.npm/_logs/*.log; do [ -f "$f" ] && grep -E "error|verbose (stack|exit)" "$f" | tail -n 15 | sed "s|^|  $(basename "$f"): |" >&2; done; rm -rf "$scratch"' EXIT
# A bare clone of this checkout's HEAD: the file:// URL the block installs from (and one an
# unprivileged user may read: git refuses a repository owned by someone else).
git clone -q --bare "$repo" "$scratch/repo.git"
if [ -n "$without_prebuilds" ]; then
  git clone -q "$scratch/repo.git" "$scratch/edit"
  git -C "$scratch/edit" rm -rq prebuilds
  git -C "$scratch/edit" -c user.name=ci -c user.email=ci@example.invalid commit -qm 'no prebuilt binaries'
  git -C "$scratch/edit" push -q origin HEAD
  rm -rf "$scratch/edit"
fi
mkdir -p "$scratch/home" "$scratch/work" "$scratch/prefix" "$scratch/bin"
printf '%s\n' "$block" | sed "s|^REPO=[^[:space:]]*|REPO=file://$scratch/repo.git|" >"$scratch/commands.sh"

path="$scratch/prefix/bin:/usr/local/bin:/usr/bin:/bin"
if [ -n "$no_toolchain" ]; then
  # Every program on PATH but the ones a native build needs.
  for dir in /usr/local/bin /usr/bin /bin; do
    for f in "$dir"/*; do
      name=${f##*/}
      case $name in
        make | gmake | cc | c++ | gcc* | g++* | cpp* | clang* | python* | ld | ld.* | as | *-linux-gnu-*) continue ;;
      esac
      # Programs only (not /usr/bin/X11, a link to its own directory), each name once.
      [ -f "$f" ] && [ -x "$f" ] || continue
      [ -e "$scratch/bin/$name" ] || [ -L "$scratch/bin/$name" ] || ln -s "$f" "$scratch/bin/$name"
    done
  done
  path="$scratch/prefix/bin:$scratch/bin"
fi

printf 'prefix=%s\n' "$scratch/prefix" >"$scratch/home/.npmrc"
# The machine's network settings (a proxy, its CA) carry over, nothing else of this user's npm
# configuration (a `nodedir` there would hide a missing toolchain).
grep -E '^(cafile|ca|registry|strict-ssl|proxy|https-proxy|noproxy)[[:space:]]*=' "${HOME:-/nonexistent}/.npmrc" >>"$scratch/home/.npmrc" 2>/dev/null || true
env_vars=(HOME="$scratch/home" PATH="$path" npm_config_cache="$scratch/home/.npm"
  npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false LANG=C.UTF-8)
for v in http_proxy https_proxy HTTP_PROXY HTTPS_PROXY no_proxy NO_PROXY NODE_EXTRA_CA_CERTS SSL_CERT_FILE SSL_CERT_DIR GIT_SSL_CAINFO; do
  [ -n "${!v:-}" ] && env_vars+=("$v=${!v}")
done
[ -n "$no_toolchain" ] && env_vars+=(npm_config_nodedir="$scratch/no-node-headers")

if [ -n "$user" ]; then
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh "$user"
  chown -R "$user" "$scratch"
  as_user() { runuser -u "$user" -- env -i "${env_vars[@]}" "$@"; }
else
  as_user() { env -i "${env_vars[@]}" "$@"; }
fi

say "running the README's install commands in $scratch/work"
t0=$SECONDS
(cd "$scratch/work" && as_user bash -euo pipefail "$scratch/commands.sh") </dev/null
say "the commands passed in $((SECONDS - t0)) s"
# The same doctor once more, to check which parser it found.
(cd "$scratch/work" && as_user bashguard doctor) >"$scratch/doctor.txt" </dev/null || { cat "$scratch/doctor.txt" >&2; exit 1; }
case $expect in
  native) pattern='^ok +parser native +loads and parses \(bashguard.s tree export\)' ;;
  wasm) pattern='^ok +parser native +not available, the WASM fallback will be used' ;;
  *) say "--expect-parser takes native or wasm"; exit 2 ;;
esac
if ! grep -Eq "$pattern" "$scratch/doctor.txt"; then
  cat "$scratch/doctor.txt" >&2
  say "doctor does not report the $expect parser"
  exit 1
fi
say "doctor passes ($expect parser)"
