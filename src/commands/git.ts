/**
 * git: which repository an invocation acts on (-C chains, --git-dir, --work-tree, GIT_DIR and
 * GIT_WORK_TREE) and what it does to it (read, mutate the checkout, shared config/hooks/refs,
 * worktrees), plus the paths it writes (`worktree add DIR`, `clone URL DIR`, `archive -o FILE`).
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../interpret/expand.js';
import type { Interpreter, Invocation } from '../interpret/interpreter.js';
import { displayPath, joinPath, normalizeLogical } from '../interpret/paths.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { CwdValue } from '../interpret/state.js';

/** Subcommands that only read. */
const READ = new Set([
  'status', 'log', 'diff', 'show', 'rev-parse', 'rev-list', 'blame', 'annotate', 'grep', 'ls-files', 'ls-tree',
  'ls-remote', 'cat-file', 'describe', 'shortlog', 'for-each-ref', 'show-ref', 'name-rev', 'merge-base', 'help',
  'version', 'var', 'check-ignore', 'check-attr', 'check-ref-format', 'diff-tree', 'diff-files', 'diff-index',
  'whatchanged', 'count-objects', 'fsck', 'verify-commit', 'verify-tag', 'verify-pack', 'cherry', 'range-diff',
  'show-branch', 'get-tar-commit-id', 'fetch', 'push', 'gc', 'repack', 'prune-packed', 'maintenance',
  'pack-refs', 'instaweb', 'request-pull', 'send-email', 'fetch-pack', 'send-pack', 'ls-refs', 'hash-object',
  'interpret-trailers', 'column', 'credential', 'difftool', 'citool', 'gitk', 'hook', 'mergetool', 'bugreport',
  'diagnose', 'archive', 'format-patch', 'bundle', 'lfs', 'rerere', 'shell',
]);

/** Subcommands that mutate the working tree, index or HEAD of the checkout they act on. */
const CHECKOUT = new Set([
  'add', 'rm', 'mv', 'commit', 'reset', 'checkout', 'switch', 'restore', 'merge', 'rebase', 'cherry-pick', 'revert',
  'pull', 'am', 'apply', 'clean', 'stash', 'checkout-index', 'read-tree', 'update-index', 'sparse-checkout', 'bisect',
  'submodule', 'mergetool', 'merge-file', 'commit-tree', 'write-tree',
]);

/** Subcommands that write shared refs. */
const REFS = new Set(['update-ref', 'replace', 'filter-branch', 'filter-repo', 'fast-import', 'prune', 'reflog']);

const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds', '--attr-source']);

interface Target {
  dir: CwdValue;
  gitDir: Field | null;
  workTree: Field | null;
  sub: string | null;
  args: Field[];
}

function parseGlobal(inv: Invocation, interp: Interpreter): Target {
  let dir: CwdValue = inv.st.cwd;
  let gitDir: Field | null = inv.env.get('GIT_DIR') ?? varField(inv, 'GIT_DIR');
  let workTree: Field | null = inv.env.get('GIT_WORK_TREE') ?? varField(inv, 'GIT_WORK_TREE');
  const args = inv.args;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!.value;
    if (!a.startsWith('-')) break;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    let value: Field | null = null;
    if (eq >= 0 && a.startsWith('--')) value = { ...args[i]!, value: a.slice(eq + 1) };
    else if (GLOBAL_WITH_VALUE.has(name) && name !== '--exec-path') value = args[++i] ?? null;
    if (name === '-C' && value) {
      // `-C` chains: each relative one is taken from the previous; an empty one is ignored.
      if (value.value !== '') dir = interp.resolveCd({ ...inv.st, cwd: dir }, value, inv.range, false);
    } else if (name === '--git-dir' && value) gitDir = value;
    else if (name === '--work-tree' && value) workTree = value;
  }
  const sub = args[i]?.value ?? null;
  return { dir, gitDir, workTree, sub, args: args.slice(i + 1) };
}

function varField(inv: Invocation, name: string): Field | null {
  const v = inv.st.vars.get(name);
  if (!v || !v.exported) return null;
  return { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false };
}

function has(args: Field[], ...flags: string[]): boolean {
  return args.some((a) => flags.includes(a.value) || flags.some((f) => f.startsWith('--') && a.value.startsWith(f + '=')));
}

function operands(args: Field[]): Field[] {
  return args.filter((a) => !a.value.startsWith('-'));
}

/** Classifies a subcommand and its arguments. */
export function gitAccess(sub: string | null, args: Field[]): GitAccess {
  if (sub === null) return 'read';
  const ops = operands(args);
  switch (sub) {
    case 'branch': {
      if (has(args, '-d', '-D', '--delete', '-m', '-M', '--move', '-c', '-C', '--copy', '-f', '--force', '-u', '--set-upstream-to', '--unset-upstream', '--edit-description')) return 'refs';
      if (has(args, '--list', '-l', '-a', '--all', '-r', '--remotes', '--show-current', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '-v', '-vv', '--verbose', '--format', '--sort')) return 'read';
      return ops.length > 0 ? 'refs' : 'read';
    }
    case 'tag':
      if (has(args, '-l', '--list', '-v', '--verify', '--contains', '--points-at', '--merged', '--no-merged')) return 'read';
      return ops.length > 0 || has(args, '-d', '--delete') ? 'refs' : 'read';
    case 'notes':
      return ops.length === 0 || ['list', 'show'].includes(ops[0]!.value) ? 'read' : 'refs';
    case 'stash':
      return ops[0] && ['list', 'show'].includes(ops[0].value) ? 'read' : 'checkout';
    case 'worktree':
      return ops[0] && ['list'].includes(ops[0].value) ? 'read' : 'worktrees';
    case 'remote':
      return ops.length === 0 || ['show', 'get-url'].includes(ops[0]!.value) ? 'read' : 'config';
    case 'symbolic-ref':
      return ops.length >= 2 || has(args, '-d', '--delete') ? 'refs' : 'read';
    case 'config': {
      // User, system or explicit-file config is not this repository's: the file write is an effect of its own.
      if (has(args, '--global', '--system', '-f', '--file', '--blob')) return 'read';
      if (has(args, '--worktree')) return has(args, '--get', '--get-all', '--get-regexp', '-l', '--list') ? 'read' : 'checkout';
      if (has(args, '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool', '-l', '--list', '--show-origin', '--show-scope', '-e', '--edit') && !has(args, '-e', '--edit')) return 'read';
      const first = ops[0]?.value;
      if (first === 'get' || first === 'list') return 'read';
      const keyIndex = first === 'set' || first === 'unset' || first === 'rename-section' || first === 'remove-section' || first === 'edit' ? 1 : 0;
      const key = ops[keyIndex]?.value ?? '';
      const valueGiven = keyIndex === 1 || ops.length >= 2 || has(args, '--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit');
      if (!valueGiven) return 'read';
      if (/^core\.hookspath$/i.test(key) || /^hook\./i.test(key)) return 'hooks';
      return 'config';
    }
    case 'init':
    case 'clone':
      return 'read';
    case 'apply':
      return has(args, '--check', '--stat', '--numstat', '--summary') && !has(args, '--apply') ? 'read' : 'checkout';
    case 'hook':
      return 'read';
  }
  if (READ.has(sub)) return 'read';
  if (CHECKOUT.has(sub)) return 'checkout';
  if (REFS.has(sub)) return sub === 'reflog' && (ops.length === 0 || ops[0]!.value === 'show') ? 'read' : 'refs';
  return 'unknown';
}

export function runGit(inv: Invocation, interp: Interpreter): void {
  const t = parseGlobal(inv, interp);
  const access = gitAccess(t.sub, t.args);
  const dirPath = t.dir.paths?.length === 1 ? t.dir.paths[0]! : t.dir.paths === null ? null : t.dir.paths[0]!;
  const fieldConf = (f: Field | null): Confidence => (f ? weakest(f.confidence, f.value.includes(HOLE) ? 'possible' : 'certain') : 'certain');
  let confidence = weakest(t.dir.confidence, weakest(fieldConf(t.gitDir), fieldConf(t.workTree)));
  if (t.dir.paths === null) confidence = 'possible';
  const absolute = (f: Field | null): string | null => {
    if (!f) return null;
    if (f.value.startsWith('/')) return f.value;
    return dirPath ? normalizeLogical(joinPath(dirPath, f.value)) : null;
  };
  const shown = ['git', ...inv.args.map((a) => displayPath(a.value))].join(' ');
  const evidence = [...t.dir.evidence];
  if (t.gitDir) evidence.push({ range: inv.range, note: `git dir is ${displayPath(absolute(t.gitDir))}${inv.env.has('GIT_DIR') ? ' (GIT_DIR)' : ''}` });
  if (t.workTree) evidence.push({ range: inv.range, note: `work tree is ${displayPath(absolute(t.workTree))}` });
  evidence.push({ range: inv.range, note: `\`${shown.length > 80 ? shown.slice(0, 77) + '...' : shown}\` runs in ${displayPath(dirPath)}` });
  const candidates = t.dir.paths ?? [null];
  for (const d of candidates) {
    interp.git({
      subcommand: t.sub,
      args: t.args.map((a) => displayPath(a.value)),
      access,
      dir: d,
      gitDir: absolute(t.gitDir),
      workTree: absolute(t.workTree),
      confidence: candidates.length > 1 ? 'possible' : confidence,
      range: inv.range,
      evidence,
      text: shown,
    });
  }
  gitPathWrites(t, inv, interp);
}

/** Paths git writes as files: new worktrees, clones, archives, patches, bundles, user config. */
function gitPathWrites(t: Target, inv: Invocation, interp: Interpreter): void {
  const ops = operands(t.args);
  const w = (op: 'write' | 'extract' | 'mkdir', f: Field, command: string, subtree = false) =>
    interp.write(op, f, inv.st, inv.range, command, { cwdOverride: t.dir, subtree });
  const optionValue = (...names: string[]): Field | null => {
    for (let i = 0; i < t.args.length; i++) {
      const a = t.args[i]!.value;
      for (const n of names) {
        if (a === n && t.args[i + 1]) return t.args[i + 1]!;
        if (n.startsWith('--') && a.startsWith(n + '=')) return { ...t.args[i]!, value: a.slice(n.length + 1) };
        if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) return { ...t.args[i]!, value: a.slice(n.length) };
      }
    }
    return null;
  };
  switch (t.sub) {
    case 'worktree': {
      if (ops[0]?.value === 'add') {
        const rest = t.args.slice(t.args.indexOf(ops[0]) + 1);
        const path = operandsSkipping(rest, ['-b', '-B', '--reason'])[0];
        if (path) w('extract', path, 'git worktree add', true);
      }
      return;
    }
    case 'clone': {
      const positional = operandsSkipping(t.args, ['-o', '--origin', '-b', '--branch', '-u', '--upload-pack', '--reference', '--separate-git-dir', '--depth', '--shallow-since', '--shallow-exclude', '-c', '--config', '--template', '-j', '--jobs', '--filter', '--server-option', '--bundle-uri', '--ref-format']);
      const url = positional[0];
      const dir = positional[1] ?? (url ? { ...url, value: url.value.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop() ?? HOLE } : null);
      if (dir) w('extract', dir, 'git clone', true);
      return;
    }
    case 'init': {
      const positional = operandsSkipping(t.args, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format', '--shared', '--ref-format']);
      const dir = positional[0] ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
      w('extract', dir, 'git init', true);
      return;
    }
    case 'archive': {
      const out = optionValue('-o', '--output');
      if (out) w('write', out, 'git archive -o');
      return;
    }
    case 'format-patch': {
      const out = optionValue('-o', '--output-directory');
      if (out) w('extract', out, 'git format-patch -o', true);
      else if (!has(t.args, '--stdout')) w('extract', { value: '.', confidence: 'certain', evidence: [], glob: false }, 'git format-patch', true);
      return;
    }
    case 'bundle': {
      if (ops[0]?.value === 'create' && ops[1]) w('write', ops[1], 'git bundle create');
      return;
    }
    case 'diff':
    case 'log':
    case 'show': {
      const out = optionValue('--output');
      if (out) w('write', out, `git ${t.sub} --output`);
      return;
    }
    case 'config': {
      const scope = has(t.args, '--global') ? 'global' : has(t.args, '--system') ? 'system' : null;
      const file = optionValue('-f', '--file');
      const rest = t.args.filter((a, i) => !['--global', '--system', '-f', '--file'].includes(a.value) && !a.value.startsWith('--file=') && !['-f', '--file'].includes(t.args[i - 1]?.value ?? ''));
      if (gitAccess('config', rest) === 'read') return;
      if (file) w('write', file, 'git config --file');
      else if (scope === 'global') {
        const home = inv.st.vars.get('HOME')?.value ?? HOLE;
        interp.write('write', { value: `${home}/.gitconfig`, confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'git config --global');
      } else if (scope === 'system') {
        interp.write('write', { value: '/etc/gitconfig', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'git config --system');
      }
      return;
    }
  }
}

function operandsSkipping(args: Field[], withValue: string[]): Field[] {
  const out: Field[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-')) {
      if (withValue.includes(a)) i++;
      continue;
    }
    out.push(args[i]!);
  }
  return out;
}
