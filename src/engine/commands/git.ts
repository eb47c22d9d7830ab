/**
 * git: which repository an invocation acts on (-C chains, --git-dir, --work-tree, GIT_DIR and
 * GIT_WORK_TREE) and what it writes there, as meaning (git-writes.ts: the refs and the state),
 * plus the paths it writes as files and the code it runs. The families live beside this file:
 * git-access.ts (what each subcommand does), git-refs.ts (the branches it moves), git-writes.ts
 * (the meaning the policy reads), git-files.ts (worktree-file writers), git-code.ts (code git
 * runs), git-resolve.ts (what `git X` runs for a name not classified, from the machine).
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { CwdValue } from '../shell/state.js';
import { envOf } from './env.js';
import { unlisted } from './unknown.js';
import { resolveGitCommand, splitCommandLine } from './git-resolve.js';
import { operandsSkipping, shellQuote, type Target } from './git-args.js';
import { forEachRepoCommand, gitAccess, sharedOf, synonymOf } from './git-access.js';
import { createdBranches, refMoves } from './git-refs.js';
import { gitWrites } from './git-writes.js';
import { gitCodeOptions, runGitCode } from './git-code.js';
import { gitEnvWrites, gitPathWrites } from './git-files.js';

export { gitAccess } from './git-access.js';
export { refMoves } from './git-refs.js';
export { operandsSkipping } from './git-args.js';

/** How many aliases in a row are followed (git itself stops at the first one it meets twice). */
const MAX_ALIAS_DEPTH = 16;

/** `--option=VALUE` options whose value is handled above, or is not a path (formats, dates, names, modes). */
const DESCRIBED_VALUES = new Set(['output', 'separate-git-dir', 'template', 'prefix', 'directory', 'source', 'output-directory', 'pack-destination', 'format', 'pretty', 'date', 'since', 'until', 'after', 'before', 'author', 'committer', 'grep', 'message', 'color', 'abbrev', 'depth', 'jobs', 'expire', 'expire-unreachable', 'task', 'schedule', 'sort', 'points-at', 'contains', 'merged', 'no-merged', 'set-upstream-to', 'track', 'conflict', 'strategy', 'strategy-option', 'diff-filter', 'word-diff', 'stat', 'max-count', 'skip', 'decorate', 'encoding', 'exec', 'onto', 'reason', 'ref-format', 'object-format', 'initial-branch', 'shared', 'filter', 'branch', 'origin', 'cleanup', 'fixup', 'squash', 'reuse-message', 'reedit-message', 'trailer', 'gpg-sign', 'signoff', 'untracked-files', 'ignore-submodules', 'porcelain', 'whitespace', 'unified', 'function-context', 'find-renames', 'find-copies', 'relative', 'submodule', 'recurse-submodules', 'push-option', 'pathspec-from-file']);

const GLOBAL_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix', '--list-cmds', '--attr-source']);

/** Global options that do not change which command git runs for a name (git(1), OPTIONS). */
const LOOKUP_NEUTRAL = new Set(['-C', '-c', '--config-env', '-p', '--paginate', '-P', '--no-pager', '--no-replace-objects', '--no-lazy-fetch', '--no-optional-locks', '--no-advice', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--namespace', '--attr-source']);

function parseGlobal(inv: Invocation, interp: CommandContext): Target {
  let dir: CwdValue = inv.st.cwd;
  let gitDir: Field | null = inv.env.get('GIT_DIR') ?? varField(inv, 'GIT_DIR');
  let workTree: Field | null = inv.env.get('GIT_WORK_TREE') ?? varField(inv, 'GIT_WORK_TREE');
  const args = inv.args;
  const config: Target['config'] = [];
  const count = Number(envOf(inv, 'GIT_CONFIG_COUNT')?.value ?? '0');
  for (let n = 0; n < Math.min(Number.isFinite(count) ? count : 0, 32); n++) {
    const k = envOf(inv, `GIT_CONFIG_KEY_${n}`);
    const v = envOf(inv, `GIT_CONFIG_VALUE_${n}`);
    if (k && v) config.push({ key: k.value, value: { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false } });
  }
  let i = 0;
  let lookupOptions = false;
  for (; i < args.length; i++) {
    const a = args[i]!.value;
    if (!a.startsWith('-')) break;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    if (!LOOKUP_NEUTRAL.has(name)) lookupOptions = true;
    let value: Field | null = null;
    if (eq >= 0 && a.startsWith('--')) value = { ...args[i]!, value: a.slice(eq + 1) };
    else if (GLOBAL_WITH_VALUE.has(name) && name !== '--exec-path') value = args[++i] ?? null;
    if (name === '-C' && value) {
      // `-C` chains: each relative one is taken from the previous; an empty one is ignored.
      if (value.value !== '') dir = interp.resolveCd({ ...inv.st, cwd: dir }, value, inv.range, false, 'git -C');
    } else if (name === '-c' && value) {
      const eq = value.value.indexOf('=');
      config.push({ key: eq >= 0 ? value.value.slice(0, eq) : value.value, value: { ...value, value: eq >= 0 ? value.value.slice(eq + 1) : 'true' } });
    } else if (name === '--config-env' && value) {
      const eq = value.value.indexOf('=');
      const env = eq >= 0 ? envOf(inv, value.value.slice(eq + 1)) : null;
      if (eq >= 0) config.push({ key: value.value.slice(0, eq), value: { value: env?.value ?? HOLE, confidence: env?.confidence ?? 'possible', evidence: env?.evidence ?? [], glob: false } });
    } else if (name === '--git-dir' && value) gitDir = value;
    else if (name === '--work-tree' && value) workTree = value;
  }
  const sub = args[i]?.value ?? null;
  return { dir, config, gitDir, workTree, sub, args: args.slice(i + 1), lookupOptions };
}

function varField(inv: Invocation, name: string): Field | null {
  const v = inv.st.vars.get(name);
  if (!v || !v.exported) return null;
  return { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false };
}

/** The top-level directory of the checkout `dir` is in, as far as the analysis knows. */
function topOf(dir: CwdValue, interp: CommandContext): string | null {
  const d = dir.paths?.length === 1 ? dir.paths[0]! : null;
  return d === null || d.includes(HOLE) ? null : interp.ctx.gitToplevel?.(d) ?? d;
}

export function runGit(inv: Invocation, interp: CommandContext): void {
  const t = parseGlobal(inv, interp);
  // `git X --help` runs `git help X` (git.c handle_builtin: a first argument `--help`), and a
  // command git ships given `-h` alone prints its usage (parse-options): nothing is written.
  if (t.sub !== null && (t.args[0]?.value === '--help' || (t.args.length === 1 && t.args[0]!.value === '-h' && gitAccess(t.sub, []) !== 'unknown'))) return;
  const followed = followAliases(t, inv, interp);
  if (followed === 'ran') return;
  const { resolved, access } = followed;
  if (t.sub !== null && synonymOf(t.sub) !== undefined) t.sub = synonymOf(t.sub)!;
  const dirPath = t.dir.paths?.length === 1 ? t.dir.paths[0]! : t.dir.paths === null ? null : t.dir.paths[0]!;
  const fieldConf = (f: Field | null): Confidence => (f ? weakest(f.confidence, f.value.includes(HOLE) ? 'possible' : 'certain') : 'certain');
  let confidence = weakest(t.dir.confidence, weakest(fieldConf(t.gitDir), fieldConf(t.workTree)));
  if (t.dir.paths === null) confidence = 'possible';
  // A relative --git-dir / --work-tree is relative to the directory git runs in: each candidate's own.
  const absoluteIn = (f: Field | null, dir: string | null): string | null => {
    if (!f) return null;
    if (f.value.startsWith('/')) return f.value;
    return dir ? normalizeLogical(joinPath(dir, f.value)) : null;
  };
  const absolute = (f: Field | null): string | null => absoluteIn(f, dirPath);
  const shown = ['git', ...inv.args.map((a) => displayPath(a.value))].join(' ');
  const evidence = [...t.dir.evidence];
  if (t.gitDir) evidence.push({ range: inv.range, note: `git dir is ${displayPath(absolute(t.gitDir))}${inv.env.has('GIT_DIR') ? ' (GIT_DIR)' : ''}` });
  if (t.workTree) evidence.push({ range: inv.range, note: `work tree is ${displayPath(absolute(t.workTree))}` });
  evidence.push({ range: inv.range, note: `\`${shown.length > 80 ? shown.slice(0, 77) + '...' : shown}\` runs in ${displayPath(dirPath)}` });
  for (const note of resolved) evidence.push({ range: inv.range, note });
  const moves = refMoves(t.sub, t.args);
  const shared = access === 'refs' ? sharedOf(t.sub, moves?.shared) : undefined;
  const shownArgs = t.args.map((a) => displayPath(a.value));
  const created = access === 'read' ? [] : createdBranches(t.sub, t.args.map((a) => a.value));
  const writes = gitWrites({ sub: t.sub, args: shownArgs, access, moves, shared, created });
  let candidates = t.dir.paths ?? [null];
  if (t.sub === 'for-each-repo') {
    // The repositories come from a config key's values: which checkouts they are is not known here.
    candidates = [null];
    const inner = forEachRepoCommand(t.args);
    evidence.push({ range: inv.range, note: inner && inner !== 'none' ? `runs \`git ${[inner.sub, ...inner.args.map((a) => a.value)].join(' ')}\` in every repository a config key lists` : 'runs a git command line not followed here in every repository a config key lists' });
  }
  if (t.sub === 'init' && access !== 'read') {
    // The repository git init (re)initializes is its directory operand, else the cwd.
    const dir = operandsSkipping(t.args, ['--template', '--separate-git-dir', '-b', '--initial-branch', '--object-format', '--ref-format'])[0];
    if (dir) {
      const cd = interp.resolveCd({ ...inv.st, cwd: t.dir }, dir, inv.range, false);
      candidates = cd.paths ?? [null];
    }
  }
  if (t.sub === 'push' && !moves) {
    // `git push ../.. HEAD:x`: a repository given by path receives refs (and objects).
    const remote = operandsSkipping(t.args, ['-o', '--push-option', '--repo', '--receive-pack', '--exec'])[0];
    if (remote && /^(?:\.\.?\/|\/|\.\.$|file:\/\/)/.test(remote.value)) {
      const path = { ...remote, value: remote.value.replace(/^file:\/\//, '') };
      interp.write('unknown-command', path, inv.st, inv.range, 'git push', { cwdOverride: t.dir, subtree: true, confidenceCap: 'possible' });
    }
  }
  for (const d of candidates) {
    interp.git({
      ...(moves && moves.branches.length > 0 ? { branches: moves.branches } : {}),
      ...(shared ? { shared } : {}),
      subcommand: t.sub,
      args: shownArgs,
      writes,
      access,
      dir: d,
      gitDir: absoluteIn(t.gitDir, d),
      workTree: absoluteIn(t.workTree, d),
      confidence: candidates.length > 1 ? 'possible' : confidence,
      range: inv.range,
      evidence,
      text: shown,
    });
  }
  gitPathWrites(t, inv, interp);
  // Closed world: the value of a `--option=VALUE` not described here may be a path it writes.
  const undescribed = t.args.filter((a) => /^--[A-Za-z][\w-]*=./.test(a.value) && !DESCRIBED_VALUES.has(a.value.slice(2, a.value.indexOf('='))));
  if (undescribed.length > 0) unlisted(inv, interp, undescribed.map((a) => ({ ...a, value: a.value.slice(a.value.indexOf('=') + 1) })), 'the value of an option bashguard does not describe');
  gitCodeOptions(t, access, inv, interp);
  gitEnvWrites(t, access, inv, interp);
}

/**
 * A name git.ts does not classify: what git would run for it (git-resolve.ts), aliases followed
 * as git follows them; git stops at the first alias it meets again ("alias loop detected").
 * Rewrites `t` to the command an alias runs; 'ran' when the alias is shell code, analyzed here.
 */
function followAliases(t: Target, inv: Invocation, interp: CommandContext): { resolved: string[]; access: GitAccess } | 'ran' {
  const resolved: string[] = [];
  const seen = new Set<string>();
  let access = gitAccess(t.sub, t.args);
  for (let depth = 0; access === 'unknown' && t.sub !== null && synonymOf(t.sub) === undefined && t.sub !== 'for-each-repo'; depth++) {
    const name = t.sub;
    if (depth >= MAX_ALIAS_DEPTH || seen.has(name.toLowerCase())) {
      resolved.push(depth >= MAX_ALIAS_DEPTH ? `aliases nest deeper than ${MAX_ALIAS_DEPTH} at ${name}` : `the aliases loop back to ${name}`);
      break;
    }
    seen.add(name.toLowerCase());
    const cmdline = t.config.map((c) => ({ key: c.key, value: c.value.value }));
    let r = resolveGitCommand(name, inv, interp, t.dir, cmdline, t.lookupOptions || t.gitDir !== null || t.workTree !== null);
    // Without the machine's facts, an alias this very command line defines is taken as what runs.
    const own = [...t.config].reverse().find((c) => c.key.toLowerCase() === `alias.${name.toLowerCase()}`);
    if (r.kind === 'unknown' && own) r = { kind: 'alias', value: own.value.value, from: 'the command line', toplevel: '' };
    if (r.kind === 'alias') {
      const from = r.from === 'the command line' ? `git -c alias.${name}` : `alias.${name} (${displayPath(r.from)})`;
      if (r.value.startsWith('!')) {
        // git-config(1), alias.*: run by the shell from the top-level directory, with the arguments appended.
        const code = [r.value.slice(1), ...t.args.map((a) => shellQuote(a.value))].join(' ');
        const top = r.toplevel !== '' ? r.toplevel : topOf(t.dir, interp);
        const cwd: CwdValue = top ? { paths: [top], confidence: t.dir.confidence, evidence: t.dir.evidence, changed: true } : t.dir;
        runGitCode(inv, interp, { ...t, dir: cwd }, { value: code, confidence: own?.value.confidence ?? 'certain', evidence: own?.value.evidence ?? [], glob: false }, from);
        return 'ran';
      }
      const words = splitCommandLine(r.value);
      if (words === null || words.length === 0 || words[0]!.startsWith('-')) {
        resolved.push(`${from} is \`${r.value}\`, a command line not followed here`);
        break;
      }
      resolved.push(`${from} runs \`git ${r.value}\``);
      const base = own?.value ?? { value: '', confidence: 'certain' as const, evidence: [], glob: false };
      t.sub = words[0]!;
      t.args = [...words.slice(1).map((w) => ({ ...base, value: w })), ...t.args];
      access = gitAccess(t.sub, t.args);
      continue;
    }
    if (r.kind === 'none') access = 'read';
    resolved.push(r.kind === 'external' ? `git runs ${displayPath(r.path)}, an external git command` : r.why);
    break;
  }
  return { resolved, access };
}
