/**
 * What the enforcement e2e suites (enforce.e2e.test.ts: bashguard's wrapper; client-sandbox.e2e.test.ts:
 * Claude Code's own sandbox) share: the scripted steps (escapes the analyzer lets through, the
 * tampering that would switch the guard off, each with the file that must not change) and the
 * byte-level snapshot of everything that must stay as it was.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { ScriptStep } from './fake-anthropic.js';
import { git } from './layout.js';

export interface Step extends ScriptStep {
  label: string;
  /** escape: writes outside the worktree; tamper: writes a control file; legit: must work. */
  kind: 'escape' | 'tamper' | 'legit' | 'setup';
  /** For escapes and tampering: the file that must not change or appear. */
  target?: string;
  expectOutput?: string | RegExp;
}

export const bash = (kind: Step['kind'], label: string, command: string, extra: Partial<Step> = {}): Step => ({ kind, label, tool: 'Bash', input: { command, description: label }, ...extra });

/** A command that writes `body` to stdout line by line (then redirected into a script file). */
export const py = (body: string) => `printf '%s\\n' ${body.split('\n').map((l) => `'${l.replace(/'/g, `'\\''`)}'`).join(' ')}`;

/** Escapes written as files first (the analyzer cannot read what a script does at run time), and a computed sibling path. */
export function escapeSteps(main: string, sibling: string): Step[] {
  return [
    bash('setup', 'write s1.sh', `${py('cd ../.. && echo escaped > ESC1')} > s1.sh`),
    bash('escape', 'sh s1.sh (a script written, then run)', 'sh s1.sh', { target: join(main, 'ESC1') }),
    bash('setup', 'write e2.py', `${py('import os\nopen(os.path.join(os.path.dirname(os.getcwd()), "..", "ESC2"), "w").write("x")')} > e2.py`),
    bash('escape', 'python3 e2.py (a computed path)', 'python3 e2.py', { target: join(main, 'ESC2') }),
    bash('setup', 'write Makefile.esc', `printf 'all:\\n\\tcd ../.. && touch ESC3\\n' > Makefile.esc`),
    bash('escape', 'make -f Makefile.esc (indirection)', 'make -f Makefile.esc', { target: join(main, 'ESC3') }),
    bash('escape', 'node -e with a computed sibling path', `node -e "const p=require('path');require('fs').writeFileSync(p.join(process.cwd(),'..','b'+String(1+1),'ESC5'),'x')"`, { target: join(sibling, 'ESC5') }),
  ];
}

/** `cd sub` in one call, a relative write in the next: the cwd carries over. */
export const cdSteps = (): Step[] => [bash('legit', 'cd sub', 'mkdir -p sub && cd sub'), bash('legit', 'a relative write in the next call', 'echo rel > rel.txt && pwd', { expectOutput: /\/sub\b/ })];

/** The tampering: each would switch the guard off for the rest of the session. */
export function tamperSteps(main: string, home: string, extra: Step[] = []): Step[] {
  return [
    bash('setup', 'write t3.py', `${py('import subprocess\nd = subprocess.check_output(["git", "rev-parse", "--git-common-dir"]).decode().strip()\nopen(d + "/config", "a").write("[core]\\n\\thooksPath = /tmp\\n")')} > t3.py`),
    bash('tamper', 'python3 t3.py (the shared .git/config)', 'python3 t3.py', { target: join(main, '.git', 'config') }),
    bash('setup', 'write t4.py', `${py('import os, subprocess\nos.chdir(subprocess.check_output(["git", "rev-parse", "--show-toplevel"]).decode().strip())\nos.makedirs(".claude", exist_ok=True)\nopen(".claude/settings.local.json", "w").write("{\\"disableAllHooks\\": true}")')} > t4.py`),
    bash('tamper', 'python3 t4.py (.claude/settings.local.json)', 'python3 t4.py', { target: '.claude/settings.local.json' }),
    bash('setup', 'write t5.py', `${py('import os\nopen(os.path.expanduser("~") + "/.gitconfig", "a").write("[core]\\n\\tfsmonitor = true\\n")')} > t5.py`),
    bash('tamper', 'python3 t5.py (core.fsmonitor in ~/.gitconfig: git outside the sandbox would run it)', 'python3 t5.py', { target: join(home, '.gitconfig') }),
    ...extra,
    // The user settings before the launcher: with the launcher emptied first, the next call's hook
    // fails and the client blocks that call ("onFailure": "block"), so the settings step could not
    // land even unenforced; emptied settings drop the hook, and the launcher step then lands unhooked.
    bash('setup', 'write t1.py', `${py('import os\nopen(os.path.expanduser("~") + "/.claude/settings.json", "w").write("{}")')} > t1.py`),
    bash('tamper', 'python3 t1.py (empties the user settings)', 'python3 t1.py', { target: join(home, '.claude', 'settings.json') }),
    bash('setup', 'write t2.py', `${py('import glob, os\nfor f in glob.glob(os.path.expanduser("~") + "/.claude/hooks/*"): open(f, "w").write("")')} > t2.py`),
    bash('tamper', 'python3 t2.py (empties the launcher)', 'python3 t2.py', { target: join(home, '.claude', 'hooks') }),
  ];
}

/** Every file under a directory with its hash (one subtree left out). */
export function tree(dir: string, skip: string | null = null): string {
  const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (p === skip) continue;
      if (e.isDirectory()) walk(p);
      else out.push(`${relative(dir, p)} ${e.isFile() ? hash(p) : 'link'}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out.sort().join('\n');
}

/**
 * Everything that must stay byte-identical: the main checkout (less what the worktree's own
 * commits write: objects, its branch and reflog, its admin dir; and lines `ignore` accepts), the
 * sibling, the client's control files under ~/.claude (it writes its own state beside them),
 * bashguard's user config, git's view of main, the worktree's `.claude/`.
 */
export function snapshot(main: string, wt: string, sibling: string, home: string, ignore: (line: string) => boolean = () => false): Record<string, string> {
  return {
    main: tree(main, wt)
      .split('\n')
      .filter((l) => !/^\.git\/(objects\/|worktrees\/b1\/|refs\/heads\/b1 |logs\/refs\/heads\/b1 )/.test(l) && !ignore(l))
      .join('\n'),
    sibling: tree(sibling),
    claudeSettings: tree(join(home, '.claude')).split('\n').filter((l) => /^(settings[^/]*\.json|hooks\/)/.test(l)).join('\n'),
    config: tree(join(home, '.config', 'bashguard')),
    mainStatus: git(main, ['status', '--porcelain', '--untracked-files=all']),
    worktreeSettings: tree(join(wt, '.claude')),
  };
}

/**
 * A throw-away main checkout with one commit and linked worktrees `.builders/b1` (the agent's) and
 * `.builders/b2` (its sibling), and a local npm package in b1 for an install with no network.
 */
export function escapeLayout(prefix: string): { root: string; main: string; wt: string; sibling: string } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const main = join(root, 'main');
  mkdirSync(main, { recursive: true });
  git(main, ['init', '-q']);
  writeFileSync(join(main, 'README.md'), '# scratch repo\n');
  git(main, ['add', '.']);
  git(main, ['commit', '-q', '-m', 'initial']);
  appendFileSync(join(main, '.git', 'info', 'exclude'), '.builders/\n');
  const wt = join(main, '.builders', 'b1');
  const sibling = join(main, '.builders', 'b2');
  git(main, ['worktree', 'add', '-q', '-b', 'b1', wt]);
  git(main, ['worktree', 'add', '-q', '-b', 'b2', sibling]);
  mkdirSync(join(wt, 'localpkg'));
  writeFileSync(join(wt, 'localpkg', 'package.json'), '{"name":"localpkg","version":"1.0.0","main":"index.js"}\n');
  writeFileSync(join(wt, 'localpkg', 'index.js'), "exports.v = 'local-v1';\n");
  return { root, main, wt, sibling };
}
