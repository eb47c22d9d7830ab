/**
 * The files git writes as files (not as git state): new worktrees, clones, archives, patches,
 * bundles, the user config; trees it checks out into the working tree (`checkout TREE -- PATH`,
 * `stash pop`, `apply`); an index or object store moved by GIT_INDEX_FILE / GIT_OBJECT_DIRECTORY.
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { displayPath } from '../shell/paths.js';
import type { CwdValue } from '../shell/state.js';
import { envOf } from './env.js';
import { patchTargets, patchText } from './patch-files.js';
import { has, operands, operandsSkipping, optionValue, type Target } from './git-args.js';
import { gitAccess } from './git-access.js';
import { writesObjects } from './git-writes.js';

const INDEX_READERS = new Set(['status', 'diff', 'describe', 'stash']);

/** GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY move the index and the object store git writes. */
export function gitEnvWrites(t: Target, access: GitAccess, inv: Invocation, interp: CommandContext): void {
  const index = envOf(inv, 'GIT_INDEX_FILE');
  if (index && !index.fromEnvironment && index.value !== '') {
    // Commands that change the checkout write the index; status/diff refresh it when stat data moved.
    const certain = access === 'checkout';
    if (certain || INDEX_READERS.has(t.sub ?? '')) {
      interp.write('write', { value: index.value, confidence: certain ? index.confidence : 'possible', evidence: [...index.evidence, { range: inv.range, note: `GIT_INDEX_FILE=${displayPath(index.value)}: \`git ${t.sub ?? ''}\` writes its index there` }], glob: false }, inv.st, inv.range, `git ${t.sub ?? ''} (GIT_INDEX_FILE)`.trim(), { cwdOverride: t.dir });
    }
  }
  const objects = envOf(inv, 'GIT_OBJECT_DIRECTORY');
  if (objects && !objects.fromEnvironment && objects.value !== '') {
    if (writesObjects(t.sub, access, t.args.map((a) => a.value))) {
      interp.write('extract', { value: objects.value, confidence: objects.confidence, evidence: [...objects.evidence, { range: inv.range, note: `GIT_OBJECT_DIRECTORY=${displayPath(objects.value)}: \`git ${t.sub ?? ''}\` writes objects there` }], glob: false }, inv.st, inv.range, `git ${t.sub ?? ''} (GIT_OBJECT_DIRECTORY)`.trim(), { cwdOverride: t.dir, subtree: true });
    }
  }
}

/** Paths git writes as files: new worktrees, clones, archives, patches, bundles, user config. */
export function gitPathWrites(t: Target, inv: Invocation, interp: CommandContext): void {
  const ops = operands(t.args);
  const w = (op: 'write' | 'extract' | 'mkdir', f: Field, command: string, subtree = false) =>
    interp.write(op, f, inv.st, inv.range, command, { cwdOverride: t.dir, subtree });
  const option = (...names: string[]): Field | null => optionValue(t.args, ...names);

  switch (t.sub) {
    case 'checkout':
    case 'restore':
    case 'checkout-index':
    case 'read-tree':
    case 'stash':
    case 'apply':
    case 'am':
      gitTreeWrites(t, inv, interp);
      return;
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
      if (t.gitDir && !t.gitDir.value.includes(HOLE)) {
        // GIT_DIR / --git-dir: the repository is made there (relative to DIR, which git enters
        // first), and DIR gets nothing but itself (git-init(1), GIT_DIR).
        const g = t.gitDir.value.startsWith('/') || !positional[0] ? t.gitDir : { ...t.gitDir, value: `${dir.value.replace(/\/+$/, '')}/${t.gitDir.value}` };
        w('mkdir', g, 'git init', true);
        if (positional[0]) w('mkdir', dir, 'git init', false);
        return;
      }
      // A repository's own files (`.git/...`), not a tree of names not known statically.
      w('mkdir', dir, 'git init', true);
      return;
    }
    case 'archive': {
      const out = option('-o', '--output');
      if (out) w('write', out, 'git archive -o');
      return;
    }
    case 'format-patch': {
      const out = option('-o', '--output-directory');
      // NNNN-subject.patch files directly in the directory.
      if (out) w('write', { ...out, value: `${out.value.replace(/\/+$/, '')}/*.patch`, glob: true }, 'git format-patch -o');
      else if (!has(t.args, '--stdout')) w('write', { value: './*.patch', confidence: 'certain', evidence: [], glob: true }, 'git format-patch');
      return;
    }
    case 'bundle': {
      if (ops[0]?.value === 'create' && ops[1]) w('write', ops[1], 'git bundle create');
      return;
    }
    case 'credential-store': {
      // git-credential-store(1): `store` and `erase` rewrite the --file (default ~/.git-credentials).
      const file = option('--file');
      const action = operandsSkipping(t.args, ['--file'])[0]?.value;
      if (file && (action === 'store' || action === 'erase')) w('write', file, `git credential-store ${action}`);
      return;
    }
    case 'diff':
    case 'log':
    case 'show': {
      const out = option('--output');
      if (out) w('write', out, `git ${t.sub} --output`);
      return;
    }
    case 'config': {
      const scope = has(t.args, '--global') ? 'global' : has(t.args, '--system') ? 'system' : null;
      const file = option('-f', '--file');
      const rest = t.args.filter((a, i) => !['--global', '--system', '-f', '--file'].includes(a.value) && !a.value.startsWith('--file=') && !['-f', '--file'].includes(t.args[i - 1]?.value ?? ''));
      if (gitAccess('config', rest) === 'read') return;
      if (file) w('write', file, 'git config --file');
      else if (scope === 'global') {
        // GIT_CONFIG_GLOBAL, else $HOME/.gitconfig (a HOME the command sets moves it).
        const global = envOf(inv, 'GIT_CONFIG_GLOBAL');
        const home = envOf(inv, 'HOME');
        const path = global?.value || `${home?.value ?? HOLE}/.gitconfig`;
        const src = global ?? home;
        interp.write('write', { value: path, confidence: src?.confidence ?? 'certain', evidence: src && !src.fromEnvironment ? [...src.evidence, { range: inv.range, note: `${global ? 'GIT_CONFIG_GLOBAL' : 'HOME'}=${displayPath(src.value)} moves the global git config` }] : [], glob: false }, inv.st, inv.range, 'git config --global');
      } else if (scope === 'system') {
        interp.write('write', { value: '/etc/gitconfig', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'git config --system');
      }
      return;
    }
  }
}

/**
 * Git commands that write a tree into the checkout (#38): `checkout <tree-ish> -- PATHS`,
 * `restore --source`, `checkout-index`, `read-tree -u`, `stash pop|apply`, `apply`, `am`. What
 * they write comes from a commit, the stash, the index or a patch: where that cannot be known
 * statically, any name may land below the pathspec (a control file included); a patch that can
 * be read names its files.
 */
function gitTreeWrites(t: Target, inv: Invocation, interp: CommandContext): void {
  const a = t.args;
  const dir = t.dir.paths?.length === 1 ? t.dir.paths[0]! : null;
  const top = dir ? interp.ctx.gitToplevel?.(dir) ?? dir : null;
  const topCwd: CwdValue | undefined = top ? { paths: [top], confidence: t.dir.confidence, evidence: t.dir.evidence, changed: true } : undefined;
  const dot = (note: string): Field => ({ value: '.', confidence: 'certain', evidence: [{ range: inv.range, note }], glob: false });
  const tree = (f: Field, what: string, base: CwdValue | undefined = t.dir) => interp.write('write', f, inv.st, inv.range, `git ${what}`, { cwdOverride: base, subtree: true, tree: true });
  const value = (...names: string[]): Field | null => optionValue(a, ...names);

  const dd = a.findIndex((f) => f.value === '--');
  const before = dd >= 0 ? a.slice(0, dd) : a;
  const after = dd >= 0 ? a.slice(dd + 1) : [];
  switch (t.sub) {
    case 'checkout': {
      if (has(a, '--pathspec-from-file')) return tree(dot('pathspecs from a file'), 'checkout --pathspec-from-file', topCwd);
      const ops = operandsSkipping(before, ['-b', '-B', '--orphan', '--conflict', '-c']);
      // `checkout TREE-ISH -- PATHS` (or `checkout TREE-ISH PATHS`): the paths as that commit has them.
      const paths = dd >= 0 ? (ops.length >= 1 ? after : []) : ops.slice(1);
      for (const p of paths) tree(p, 'checkout <tree-ish> -- <path>');
      return;
    }
    case 'restore': {
      if (!value('--source', '-s')) return;
      if (has(a, '--staged', '-S') && !has(a, '--worktree', '-W')) return;
      const paths = [...operandsSkipping(before, ['-s', '--source', '--conflict', '--pathspec-from-file']), ...after];
      for (const p of paths) tree(p, 'restore --source');
      if (has(a, '--pathspec-from-file')) tree(dot('pathspecs from a file'), 'restore --source', topCwd);
      return;
    }
    case 'checkout-index': {
      const prefix = value('--prefix');
      const base = prefix ? interp.resolveCd({ ...inv.st, cwd: topCwd ?? t.dir }, { ...prefix, value: prefix.value.endsWith('/') ? prefix.value : prefix.value.replace(/[^/]*$/, '') || '.' }, inv.range, false) : topCwd;
      const files = operandsSkipping(a, ['--prefix', '--stage']).filter((f) => f.value !== '--');
      if (has(a, '-a', '--all', '--stdin') || files.length === 0) tree(dot('every file of the index'), 'checkout-index', base);
      else for (const f of files) interp.write('write', f, inv.st, inv.range, 'git checkout-index', { cwdOverride: prefix ? base : t.dir });
      return;
    }
    case 'read-tree': {
      if (!has(a, '-u')) return;
      const prefix = value('--prefix');
      tree(prefix ?? dot('the tree read'), 'read-tree -u', topCwd);
      return;
    }
    case 'stash': {
      const sub = operands(a)[0]?.value;
      if (sub === 'pop' || sub === 'apply' || sub === 'branch') tree(dot('the stash'), `stash ${sub}`, topCwd);
      return;
    }
    case 'apply': {
      if (has(a, '--cached', '--check', '--stat', '--numstat', '--summary') && !has(a, '--index', '--apply')) return;
      const strip = value('-p');
      const root = value('--directory');
      const files = operandsSkipping(before, ['-p', '-C', '--directory', '--include', '--exclude', '--whitespace', '--build-fake-ancestor']);
      const texts = files.length === 0 ? [patchText(inv, interp, undefined)] : files.map((f) => patchText(inv, interp, f));
      const n = strip ? Number(strip.value) : 1;
      const targets = texts.every((x) => x !== null) && Number.isInteger(n) ? texts.map((x) => patchTargets(x!, n)) : null;
      if (targets && targets.every((x) => x !== null)) {
        for (const f of targets.flat().slice(0, 64)) {
          const path = root ? `${root.value.replace(/\/+$/, '')}/${f}` : f;
          interp.write('modify', { value: path, confidence: 'likely', evidence: [{ range: inv.range, note: `the patch changes ${path}` }], glob: false }, inv.st, inv.range, 'git apply', { cwdOverride: topCwd });
        }
        return;
      }
      tree(root ?? dot('the patch'), 'apply', topCwd);
      return;
    }
    case 'am':
      if (!has(a, '--abort', '--quit', '--show-current-patch')) tree(dot('the patches'), 'am', topCwd);
      return;
  }
}
