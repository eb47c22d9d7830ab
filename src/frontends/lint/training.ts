/**
 * The lint child's code-cache training script (./worker.ts). The child's V8 code cache
 * (src/runtime/startup/code-cache.ts) holds the bytecode of the functions that had run when it was
 * written, and it is written once, by the first lint child on a machine and Node. When that
 * first run was one small file (a pre-commit hook on a one-line change), every later child
 * compiled the rest of the interpreter and command table from source again (~340 functions on the
 * 85-line .ci/run, against ~50 after this training; test/system/runtime/code-cache.test.ts). On the bench's
 * batches of 50 Debian scripts, after a one-line first run: 3% less wall time, 4% less CPU
 * (docs/history/performance.md). So the child that is about to write the cache
 * first lints this script, which uses the constructs and command families scripts use; its
 * findings go nowhere. A lint that analyzes in its own process (`--timeout 0`, or a run that
 * would have one child: ./rerun.ts) does the same before its CLI's cache is written.
 */
import { CODE_CACHE_WARM_UP, CODE_CACHE_WARMED } from '../../runtime/index.js';
import type { Linter } from './lint.js';

export const TRAINING_SCRIPT = [
  "#!/bin/bash",
  "# Training run for the lint worker's code cache: the constructs and command families scripts use.",
  "set -euo pipefail",
  "IFS=$'\\n\\t'",
  "readonly PROG=${0##*/}",
  ": \"${PREFIX:=/usr/local}\"",
  "declare -a files=(a.txt \"b c.txt\")",
  "declare -A seen=([x]=1)",
  "export LC_ALL=C",
  "usage() { cat <<USAGE >&2",
  "usage: $PROG [-v] [-o dir] target",
  "USAGE",
  "  exit 2; }",
  "log() { printf '%s: %s\\n' \"$PROG\" \"$*\" >&2; }",
  "die() { log \"$@\"; exit 1; }",
  "verbose=0 out=",
  "while getopts 'vo:h' opt; do",
  "  case $opt in",
  "    v) verbose=$((verbose + 1)) ;;",
  "    o) out=$OPTARG ;;",
  "    h|*) usage ;;",
  "  esac",
  "done",
  "shift $((OPTIND - 1))",
  "[ $# -ge 1 ] || usage",
  "target=$1; shift",
  "tmp=$(mktemp -d \"${TMPDIR:-/tmp}/train.XXXXXX\")",
  "trap 'rm -rf \"$tmp\"' EXIT INT TERM",
  "if [[ -n $out && ! -d $out ]]; then mkdir -p -- \"$out\"; elif [ -z \"$out\" ]; then out=.; fi",
  "for f in \"${files[@]}\"; do",
  "  [ -f \"$f\" ] || continue",
  "  cp -- \"$f\" \"$out/${f%.txt}.bak\"",
  "  sed -i.orig -e \"s/old/new/g\" \"$out/$f\"",
  "  echo \"${f##*/} ${#f} ${f/a/b} ${f:0:3} ${seen[x]:-none}\" >> \"$tmp/list\"",
  "done",
  "while IFS= read -r line; do",
  "  n=$((n + ${#line}))",
  "done < \"$tmp/list\"",
  "find . -name '*.tmp' -print0 | xargs -0 rm -f",
  "( cd \"$out\" && tar -czf \"$tmp/out.tgz\" . )",
  "pushd /var/tmp >/dev/null; ln -sf \"$tmp/out.tgz\" latest.tgz; popd >/dev/null",
  "{ date; uname -a; } | tee -a \"$out/build.log\" > /dev/null",
  "cat > \"$out/config.json\" <<-JSON",
  "\t{ \"target\": \"$target\" }",
  "\tJSON",
  "git -C \"$out\" init -q && git -C \"$out\" add -A && git -C \"$out\" commit -qm \"build $target\"",
  "git status --short | grep -q . && git stash push -m wip",
  "git worktree add ../wt-\"$target\" -b \"feature/$target\" 2>/dev/null || true",
  "if command -v npm >/dev/null 2>&1; then npm install --prefix \"$out\" && npm run build; fi",
  "install -m 0755 \"$tmp/out.tgz\" \"$PREFIX/share/train/\" || die \"install failed\"",
  "mv -f \"$out/build.log\" \"$out/build.log.1\"; rm -rf \"${out:?}/cache\"; touch \"$out/.stamp\"",
  "chmod -R go-w \"$out\"; chown -R \"$USER\" \"$out\" 2>/dev/null || :",
  "dd if=/dev/zero of=\"$tmp/blob\" bs=1k count=4 status=none",
  "rsync -a --delete \"$out/\" \"$HOME/backup/\" || log \"rsync failed\"",
  "python3 - \"$out\" <<'PY'",
  "import sys; open(sys.argv[1] + \"/py.txt\", \"w\").write(\"x\")",
  "PY",
  "eval \"result=\\$(( ${#files[@]} * 2 ))\"; source \"$out/env.sh\" 2>/dev/null || . ./env.sh",
  "case \"$target\" in",
  "  *.tar.gz|*.tgz) tar -xzf \"$target\" -C \"$out\" ;;",
  "  http*://*) curl -fsSL \"$target\" -o \"$out/dl\" ;;",
  "  *) exec > >(tee \"$out/exec.log\") 2>&1 ;;",
  "esac",
  "select choice in yes no; do break; done </dev/null",
  "until [ \"${n:-0}\" -le 0 ]; do n=$((n / 2)); done",
  "function cleanup { local rc=$?; rm -f \"$out\"/*.orig; return $rc; }",
  "cleanup; echo \"$verbose\" > /dev/null; exit 0",
].join('\n');

/** Whether this process writes its code cache as it exits (it was missing or refused at start). */
export function writesCodeCache(): boolean {
  return (globalThis as Record<symbol, unknown>)[CODE_CACHE_WARM_UP] === true;
}

/**
 * Lints the training script when this process will write its code cache as it exits, and marks
 * the process warmed up (a start entry may require it: CODE_CACHE_REQUIRE_WARM_UP); never throws.
 */
export function trainIfWritingCache(linter: Linter): void {
  const g = globalThis as Record<symbol, unknown>;
  if (!writesCodeCache()) return;
  try {
    linter.lintFile('-', 'training.sh', TRAINING_SCRIPT);
    g[CODE_CACHE_WARMED] = true;
  } catch {
    // a training run only
  }
}
