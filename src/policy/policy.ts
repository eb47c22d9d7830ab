/**
 * Policy: the worktree layout and its write roots turn effects into findings, and findings into
 * one decision. Regions are matched by the longest root, so a worktree nested in the main
 * checkout wins over it, and the main checkout under /tmp stays protected.
 */
import { statSync } from 'node:fs';
import { HOLE, type Effect, type FileState, type GitEffect, type GitWrite, type WriteEffect, type Evidence, type Origin } from '../engine/effects/types.js';
import { weakest, type Confidence } from '../engine/effects/confidence.js';
import type { Range } from '../engine/syntax/ir.js';
import type { Layout } from './layout/types.js';
import { basenameOf, dirnameOf, displayPath, isInside, normalizeLogical } from '../engine/shell/paths.js';
import { cachedFs, nodeFs, resolvePhysical, type PhysicalFs } from './physical.js';
import { ruleById, type RuleId, type Severity } from './rules/catalog.js';
import type { Config, Decision } from './config.js';
import { pathspecReaches } from './git-control.js';
import { sharedGitWrites, type SharedGitWrite } from './shared-git.js';
import { allowedRegion, classify, protects, type Region, type RegionKind } from './regions.js';

export interface PolicyContext {
  /** Where writes are allowed: the worktree (or, for lint, the checkout) root. realpath'd. */
  root: string;
  layout: Layout | null;
  /** The workspace's regions (src/policy/regions.ts): worktree, protected checkouts, write roots. */
  regions: Region[];
  config: Config;
  fs: PhysicalFs;
  /**
   * The index state of existing files under the root (untracked, ignored, modified, clean), for
   * git commands that drop control files; null or absent: unknown (every state is assumed).
   */
  gitFileStates?: (root: string, paths: string[]) => Map<string, Set<FileState>> | null;
  /**
   * `regions` plus the physical image of every protected region whose path runs through a symlink
   * (a `.claude` that links to a directory the agent owns): the kernel writes the image, and the
   * client reads the file through the link. Computed at hook time, once, when a write is judged.
   */
  physicalRegions?: () => Region[];
  /**
   * The protected file (and its region) that has this inode, among the control files and the
   * shared git config and hooks; null when none. Asked only for a file with more than one link.
   */
  inodeOwner?: (dev: number, ino: number) => { path: string; region: Region } | null;
  /**
   * st_nlink, st_dev and st_ino of the regular file at a physical path (following a last
   * symlink), or null when there is none. Default: the real disk.
   */
  statLinks?: (path: string) => { nlink: number; dev: number; ino: number } | null;
  /** The st_dev of the main checkout and the sibling worktrees (for a hard-linked file whose other name is unknown). */
  protectedDevices?: () => Set<number>;
  /**
   * The root of the checkout that has local branch `name` checked out (this one included), null
   * when none has, undefined when that cannot be known (HEAD files unreadable).
   */
  checkedOut?: (name: string) => string | null | undefined;
}

export interface Finding {
  rule: RuleId;
  name: string;
  severity: Severity;
  confidence: Confidence;
  message: string;
  /** The resolved path or repository the finding is about. */
  path: string | null;
  range: Range;
  evidence: Evidence[];
  via: string[];
  decision: Decision;
  /** The effect's place in another file (a sourced file's function), when it is there. */
  origin?: Origin;
  /** Code another process runs (a daemon), outside this call and every sandbox it runs in. */
  elsewhere?: true;
}

export interface Verdict {
  decision: Decision;
  findings: Finding[];
  /** Shared git state the call certainly writes from this linked worktree (./shared-git.ts); absent: none. */
  sharedGit?: SharedGitWrite[];
}

export function evaluate(effects: Effect[], ctx: PolicyContext): Verdict {
  // A third of the corpus has no effect at all: nothing to set up.
  if (effects.length === 0) return { decision: 'allow', findings: [] };
  // Symlinks the command itself creates (`ln -s /repo l && touch l/x`) are layered over the
  // real file system, in execution order, so later paths through them resolve where bash would.
  const created = new Map<string, string>();
  // Hard links the command itself makes (`ln SRC DST`), by the physical path of DST: a later write
  // to DST in the same command writes SRC's inode (the source, where the command knowledge gives
  // it, is judged at the link itself; WriteEffect.hardLinkSource).
  const hardLinks = new Map<string, string | null>();
  // The layout's realpath'd directories hold no symlink: no lstat for them or their parents
  // (only on the real file system, which is where discovery realpath'd them).
  const current = ctx.layout?.current;
  const disk = cachedFs(ctx.fs, ctx.fs === nodeFs ? [ctx.root, current?.root, current?.gitDir, current?.commonDir, ctx.layout?.main?.root] : []);
  // Names the command moved or copied without following a link (`mv a b`, `cp -P a b`), in order:
  // [DST, SRC], physical. Under DST is what was under SRC then: a symlink there (made by the
  // command or on disk) is one at DST. Each pair sees only the pairs before it.
  const carried: Array<[string, string]> = [];
  const linkAt = (p: string, pairs: number): string | null => {
    const made = created.get(p);
    if (made !== undefined) return made;
    for (let i = pairs - 1; i >= 0; i--) {
      const [dst, src] = carried[i]!;
      if (p === dst || p.startsWith(dst + '/')) return linkAt(src + p.slice(dst.length), i);
    }
    return disk.readlink(p);
  };
  const fs: PhysicalFs = {
    readlink: (p) => (carried.length === 0 ? created.get(p) ?? disk.readlink(p) : linkAt(p, carried.length)),
    exists: disk.exists,
    // Only while the command created no symlink (one could sit on a known directory's path).
    knownPrefix: (p) => (created.size === 0 && disk.knownPrefix ? disk.knownPrefix(p) : 0),
  };
  const regions = ctx.physicalRegions?.() ?? ctx.regions;
  const findings: Finding[] = [];
  const sharedGit: SharedGitWrite[] = [];
  const add = (rule: RuleId, confidence: Confidence, message: string, path: string | null, e: Effect, evidence: Evidence[]) => {
    const meta = ruleById(rule);
    const severity = ctx.config.rules[rule] ?? meta.severity;
    if (severity === 'off') return;
    findings.push({
      rule,
      name: meta.name,
      severity,
      confidence,
      message,
      path,
      range: e.range,
      evidence,
      via: e.via,
      decision: decide(rule, severity, confidence, ctx.config),
      ...(e.origin ? { origin: e.origin } : {}),
      ...(e.kind === 'problem' && e.elsewhere ? { elsewhere: true as const } : {}),
    });
  };
  for (const e of effects) {
    if (e.kind === 'write') {
      writeFinding(e, ctx, regions, fs, add, hardLinks);
      if (e.linkTarget !== undefined && e.path !== null && !e.path.includes(HOLE)) {
        const slash = e.path.replace(/\/+$/, '').lastIndexOf('/');
        const dir = resolvePhysical(e.path.slice(0, slash) || '/', fs);
        created.set(`${dir === '/' ? '' : dir}/${e.path.replace(/\/+$/, '').slice(slash + 1)}`, e.linkTarget);
      }
      if (e.linkFrom !== undefined && e.path !== null && !e.path.includes(HOLE) && !e.linkFrom.includes(HOLE)) {
        const name = (p: string) => joinPhysical(resolvePhysical(dirnameOf(normalizeLogical(p)) || '/', fs), basenameOf(normalizeLogical(p)));
        carried.push([name(e.path), name(e.linkFrom)]);
      }
    }
    else if (e.kind === 'git') gitFinding(e, ctx, regions, fs, add, sharedGit);
    else {
      const rule: RuleId = e.category === 'syntax' ? 'BG0001' : e.category === 'analysis-limit' ? 'BG0002' : e.reason.startsWith('sources ') ? 'BG4003' : 'BG4002';
      const via = e.via.length ? ` (inside ${e.via.join(' > ')})` : '';
      add(rule, 'possible', `${e.reason}${via}`, null, e, []);
    }
  }
  return { decision: combine(findings), findings: dedupe(findings), ...(sharedGit.length ? { sharedGit } : {}) };
}

type Add = (rule: RuleId, confidence: Confidence, message: string, path: string | null, e: Effect, evidence: Evidence[]) => void;

function writeFinding(e: WriteEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add, hardLinks?: Map<string, string | null>): void {
  // A hard link shares its source's inode: writing through it later writes the source.
  if (e.hardLinkSource !== undefined) {
    const { hardLinkSource: src, ...dest } = e;
    writeFinding(dest, ctx, regions, fs, add, hardLinks);
    // The link writes nothing by itself: it matters where a later write through it would land
    // where the worktree must never write (a protected region). A source elsewhere outside the
    // worktree is reached only by a write through the link, which is judged where it happens
    // (below in this command; sharedInode in a later one).
    const known = !src.includes(HOLE);
    if (known && !protects(classify(resolvePhysical(src, fs), regions))) {
      if (hardLinks && e.path !== null && !e.path.includes(HOLE)) hardLinks.set(resolvePhysical(e.path, fs), src);
      return;
    }
    writeFinding({ ...dest, op: 'write', path: src, subtree: false, command: `${e.command} (hard link to ${displayPath(src)})`, linkTarget: undefined, treeWrite: undefined }, ctx, regions, fs, add);
    if (hardLinks && !src.includes(HOLE) && e.path !== null && !e.path.includes(HOLE)) hardLinks.set(resolvePhysical(e.path, fs), src);
    return;
  }
  if (e.path === null) {
    // Inline code that mentions no path is fine; an unknown write target is not.
    if (e.op === 'maybe-write' || e.op === 'unknown-command') return;
    add('BG4001', 'possible', `\`${e.command}\` writes to ${e.text}, which cannot be resolved statically`, null, e, e.evidence);
    return;
  }
  const holeAt = e.path.indexOf(HOLE);
  const globAt = e.op === 'maybe-write' ? -1 : e.path.search(/[*?[]/);
  // Closed world: a path handed to a command bashguard does not know counts only where the
  // worktree must never write (the main checkout, a sibling worktree, the shared git dir).
  const onlyProtected = e.op === 'unknown-command';
  const unknownAt = holeAt < 0 ? globAt : globAt < 0 ? holeAt : Math.min(holeAt, globAt);
  // With an unknown stretch, only the directory before it is known.
  const knownPart = unknownAt < 0 ? e.path : e.path.slice(0, e.path.lastIndexOf('/', unknownAt) + 1) || '/';
  // `rm link` and `rm -r link` remove the link itself (`rm -r link/` goes through it), and an edit
  // that renames a new file over the path replaces the link: only its directory is resolved through symlinks.
  const noFollow = (e.op === 'delete' || e.replaces === true) && unknownAt < 0 && !knownPart.endsWith('/');
  let physical = noFollow ? joinPhysical(resolvePhysical(dirnameOf(normalizeLogical(knownPart)) || '/', fs), basenameOf(normalizeLogical(knownPart))) : resolvePhysical(knownPart, fs);
  let confidence = e.confidence;
  const procHole = physical.indexOf(HOLE);
  if (procHole >= 0) {
    // Through `/proc/<pid>/cwd` (physical.ts), a directory only the running shell knows, or through
    // a symlink the command made to a target not known statically.
    confidence = weakest(confidence, 'possible');
    const through = physical.includes('/cwd' + HOLE) ? "a process's cwd in /proc, which is the command's own directory at run time" : 'a symlink this command made to a target not known statically';
    add('BG1001', confidence, `\`${e.command}\`${e.via.length ? ` (via ${e.via.join(' > ')})` : ''} writes ${displayPath(e.path)}, through ${through} (unknown here, and it may be the main checkout)`, null, e, e.evidence);
    return;
  }
  const region = classify(physical, regions);
  if (unknownAt >= 0) {
    // An unknown name in a control directory (`.claude/$X`, `.claude/*.json`) may be a control file.
    if (controlTail(e, ctx, regions, fs, physical, holeAt, globAt, add)) return;
    // Unknown text after a directory that contains the worktree may still land inside it; a glob
    // confined to the last component (it cannot match `/`) names a direct child of that directory.
    const globInLastComponent = holeAt < 0 && globAt >= 0 && !e.path.slice(globAt).includes('/');
    if (isInside(ctx.root, physical) && physical !== ctx.root && !e.subtree && !globInLastComponent) confidence = 'possible';
    if (allowedRegion(region)) {
      controlBelow(e, physical, globAt >= 0 && holeAt < 0 ? e.path.slice(globAt) : null, regions, add);
      return;
    }
  } else if (allowedRegion(region)) {
    controlBelow(e, physical, null, regions, add);
    if (onlyProtected) return;
    // A recursive write at an ancestor of the worktree reaches beyond it.
    if (!(e.subtree && isInside(ctx.root, physical) && physical !== ctx.root)) {
      // ... and one at an ancestor of a protected file (`rm -rf .claude`) reaches it.
      const removes = e.subtree && (e.op === 'delete' || e.op === 'move');
      const inner = removes ? regions.find((r) => r.kind === 'protected' && r.root !== physical && isInside(r.root, physical) && (fs.exists?.(r.root) ?? true)) : undefined;
      if (inner) add('BG1005', confidence, `\`${e.command}\`${e.via.length ? ` (via ${e.via.join(' > ')})` : ''} ${e.op === 'delete' ? 'deletes' : 'writes'} ${physical}, which holds ${inner.root}: ${inner.why ?? 'a protected file'}`, inner.root, e, e.evidence);
      else if (!placesTree(e, ctx, regions, fs, physical, add) && region.kind !== 'device') {
        if (e.op === 'link' && e.linkTarget === undefined && e.hardLinkSource === undefined && hardLinks && !e.subtree) hardLinks.set(physical, null);
        else if (e.replaces) {
          // A new inode takes the name: no hard link to it is written through.
        } else if (hardLinks?.has(physical) && IN_PLACE.has(e.op) && hardLinks.get(physical) === null) {
          const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
          add('BG1005', weakest(e.confidence, 'possible'), `\`${e.command}\`${via} writes ${physical}, which this command made a link to a file not known here (a hard link writes its source: it may be a protected file)`, physical, e, e.evidence);
        } else if (hardLinks?.has(physical) && IN_PLACE.has(e.op)) {
          // Through a link this command made to a known source: a write to the source.
          const src = hardLinks.get(physical)!;
          writeFinding({ ...e, path: src, subtree: false, command: `${e.command} (through a hard link to ${displayPath(src)})`, hardLinkSource: undefined, linkTarget: undefined, treeWrite: undefined }, ctx, regions, fs, add);
        } else sharedInode(e, ctx, regions, physical, add);
      }
      return;
    }
  }
  if (onlyProtected && !protects(region)) return;
  const sep = knownPart.endsWith('/') && !physical.endsWith('/') ? '/' : '';
  const shown = unknownAt >= 0 ? displayPath(physical + sep + e.path.slice(knownPart.length)) : physical;
  const symlinkNote: Evidence[] =
    unknownAt < 0 && normalizeLogical(e.path) !== physical ? [{ range: e.range, note: `${displayPath(normalizeLogical(e.path))} resolves to ${physical} through a symlink` }] : [];
  const evidence = [...e.evidence, ...symlinkNote];
  const verb = e.op === 'maybe-write' ? 'may write' : e.op === 'unknown-command' ? 'is not a command bashguard knows; it is given, and may write,' : 'writes';
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const where = describeRegion(region, ctx);
  switch (region.kind) {
    case 'main':
      add('BG1002', confidence, `\`${e.command}\`${via} ${verb} ${shown}, inside the main checkout ${region.root}, not the worktree ${ctx.root}`, physical, e, evidence);
      return;
    case 'sibling':
      add('BG1003', confidence, `\`${e.command}\`${via} ${verb} ${shown}, inside another worktree ${region.root}`, physical, e, evidence);
      return;
    case 'protected':
      add('BG1005', confidence, `\`${e.command}\`${via} ${e.op === 'delete' ? 'deletes' : verb} ${shown}, ${region.why ?? 'a protected file'}`, physical, e, evidence);
      return;
    case 'git-dir':
      if (region.detail === 'hooks') add('BG3002', confidence, `\`${e.command}\`${via} ${verb} ${shown}, a git hook shared by every checkout`, physical, e, evidence);
      else if (region.detail === 'config') add('BG3001', confidence, `\`${e.command}\`${via} ${verb} ${shown}, the repository config shared by every checkout`, physical, e, evidence);
      else add('BG1004', confidence, `\`${e.command}\`${via} ${verb} ${shown}, inside the shared git directory`, physical, e, evidence);
      return;
    default:
      // Includes a recursive write at an ancestor of the worktree, which reaches outside it.
      add('BG1001', confidence, `\`${e.command}\`${via} ${verb} ${shown}, ${where}`, physical, e, evidence);
  }
}

/**
 * A write that creates names not known statically below `dir` (a tree writer: `extract`, or an
 * effect marked `tree`: tar -x, unzip, cp -r, mv of what may be a directory, a patch, a git
 * command writing a tree) may drop a control
 * file anywhere below it, existing or not; a glob that may match names starting with `.`
 * (dotglob) reaches the existing control files it can name.
 */
function controlBelow(e: WriteEffect, dir: string, glob: string | null, regions: Region[], add: Add): void {
  // Names known (WriteEffect.treeWrite.names: a listed archive, a patch's headers) are judged by placesTree.
  const tree = (e.tree === true || e.op === 'extract') && e.treeWrite?.names === undefined;
  // A glob in the last component that may name an existing control file: one starting with `.`,
  // or any under dotglob.
  const dotGlob = glob !== null && !glob.includes('/') && (e.dotglob === true || glob.startsWith('.'));
  if (!tree && !dotGlob) return;
  const base = dir.endsWith('/') ? dir : `${dir}/`;
  // A glob confined to the last component names the entries below `dir` it matches.
  const first = glob !== null && !glob.includes('/') ? globMatcher(glob, e.dotglob === true) : null;
  for (const r of regions) {
    if (r.kind !== 'protected' || !r.root.startsWith(base)) continue;
    if (first && !first.test(r.root.slice(base.length).split('/')[0]!)) continue;
    if (!tree) {
      // A glob names entries: a direct child, or what lies below it for a recursive op (whether
      // they exist is the file system's at run time: they are assumed to).
      const rest = r.root.slice(base.length);
      if (rest.includes('/') && !e.subtree) continue;
    }
    const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
    const how = tree ? `writes a tree not known statically at ${dir}, which may receive` : `names ${displayPath(e.path ?? dir)}, a glob that may match`;
    add('BG1005', 'possible', `\`${e.command}\`${via} ${how} ${r.root}: ${r.why ?? 'a protected file'}`, r.root, e, [...e.evidence, { range: e.range, note: `${r.root} lies below ${dir}` }]);
  }
}

/** A bash glob (one component) as a regular expression; `.` at the start only matched explicitly unless dotglob. */
function globMatcher(glob: string, dotglob: boolean): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${dotglob || glob.startsWith('.') ? '' : '(?!\\.)'}${re}$`);
}

function describeRegion(r: Region, ctx: PolicyContext): string {
  // A write classified in the worktree is reported only when it is recursive at an ancestor.
  return r.kind === 'worktree' ? `which reaches outside the worktree ${ctx.root}` : `outside the worktree ${ctx.root}`;
}

type GitTarget = { kind: RegionKind | 'unknown'; root: string };

/**
 * Which checkout a git invocation really acts on: its repository (the index, HEAD and refs it
 * writes) and its work tree (the files), whichever lies outside the worktree. A work tree named
 * by --work-tree or GIT_WORK_TREE does not choose the repository: without --git-dir or GIT_DIR git
 * still finds it from the directory it runs in, so `cd ..; GIT_WORK_TREE=$OLDPWD git add -A`
 * writes the main checkout's index, and `git --git-dir=.git --work-tree=../.. checkout -- :/f`
 * this worktree's files into the main checkout.
 */
function gitTarget(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs): GitTarget {
  const repo = repositoryTarget(e, ctx, regions, fs);
  if (e.workTree === null) return repo;
  const tree: GitTarget = e.workTree.includes(HOLE) ? { kind: 'unknown', root: displayPath(e.workTree) } : regionOfDir(resolvePhysical(e.workTree, fs), regions);
  if (repo.kind === 'unknown' || tree.kind === 'worktree') return repo;
  if (tree.kind === 'unknown' || repo.kind === 'worktree') return tree;
  // Neither is this worktree: a checkout's region over a scratch or allowed one.
  return repo.kind === 'main' || repo.kind === 'sibling' || tree.kind === 'scratch' || tree.kind === 'allowed' || tree.kind === 'device' ? repo : tree;
}

/** The repository a git invocation acts on, as the checkout it belongs to. */
function repositoryTarget(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs): GitTarget {
  const l = ctx.layout;
  if (e.gitDir !== null) {
    if (e.gitDir.includes(HOLE)) return { kind: 'unknown', root: displayPath(e.gitDir) };
    const gd = resolvePhysical(e.gitDir, fs);
    if (l) {
      if (l.current.kind === 'linked-worktree' && (gd === l.current.gitDir || gd === `${ctx.root}/.git`)) return { kind: 'worktree', root: ctx.root };
      if (gd === l.current.commonDir || gd === `${l.main?.root}/.git`) {
        return l.main?.root && l.main.root !== ctx.root ? { kind: 'main', root: l.main.root } : { kind: 'worktree', root: ctx.root };
      }
      for (const s of l.siblings) if (gd === s.gitDir || (s.root && gd === `${s.root}/.git`)) return { kind: 'sibling', root: s.root ?? s.gitDir };
    }
    // A repository outside every checkout (a bare one in a scratch dir): where its files go is the work tree's question.
    return regionOfDir(gd, regions);
  }
  if (e.dir !== null && e.dir.includes(HOLE)) {
    // `cd "$(mktemp -d)"; git init; git add`: somewhere under a scratch directory that holds no
    // checkout, git can only find a repository inside the scratch directory itself.
    const h = e.dir.indexOf(HOLE);
    const known = resolvePhysical(e.dir.slice(0, e.dir.lastIndexOf('/', h) + 1) || '/', fs);
    const region = classify(known, regions);
    const holdsCheckout = regions.some((r) => (r.kind === 'worktree' || protects(r)) && isInside(r.root, known));
    if (region.kind === 'scratch' && !holdsCheckout) return { kind: 'scratch', root: region.root };
  }
  if (e.dir === null || e.dir.includes(HOLE)) return { kind: 'unknown', root: displayPath(e.dir) };
  return regionOfDir(resolvePhysical(e.dir, fs), regions);
}

function regionOfDir(dir: string, regions: Region[]): { kind: RegionKind; root: string } {
  const r = classify(dir, regions);
  // `git -C <common dir>` acts on the main repository.
  if (r.kind === 'git-dir') return { kind: 'main', root: r.root };
  return { kind: r.kind, root: r.root };
}

function gitFinding(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add, sharedGit: SharedGitWrite[]): void {
  if (e.writes.length === 0) return;
  const writes = (state: GitWrite['state']) => e.writes.some((w) => w.state === state);
  const target = gitTarget(e, ctx, regions, fs);
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const cmd = `git ${e.subcommand ?? ''}`.trim();
  if (target.kind === 'outside' || target.kind === 'protected') {
    // A repository of no checkout this layout knows, outside every write root (another project, one
    // in HOME): whatever git writes there (refs, config, objects, files) lands outside the line.
    const repo = displayPath(e.gitDir ?? e.workTree ?? e.dir);
    add('BG2001', e.confidence, `\`${cmd}\`${via} writes the repository at ${repo}, outside the worktree ${ctx.root} and every write root`, target.root === '/' ? repo : target.root, e, e.evidence);
    return;
  }
  const inRepo = target.kind === 'worktree' || target.kind === 'main' || target.kind === 'sibling' || target.kind === 'unknown';
  const evidence = e.evidence;
  if (target.kind === 'worktree') for (const w of e.writes) if (w.state === 'drops') controlFileFindings(e, w, ctx, regions, fs, add);
  if (target.kind === 'worktree') sharedGit.push(...sharedGitWrites(e, ctx, fs));
  if (inRepo) refFindings(e, ctx, target.root, via, add);
  if (inRepo && writes('config')) add('BG3001', e.confidence, `\`${cmd}\`${via} writes the repository config, shared by every checkout (use \`git config --worktree\` for this worktree only)`, target.root, e, evidence);
  if (inRepo && writes('hooks')) add('BG3002', e.confidence, `\`${cmd}\`${via} changes which hooks run for every checkout of the repository`, target.root, e, evidence);
  if (writes('gitdir')) {
    // `git init --separate-git-dir` in a checkout's root moves that repository's git dir (the
    // main checkout's `.git` from a linked worktree); in a new directory it makes a new one.
    const roots = [ctx.root, ctx.layout?.main?.root, ...(ctx.layout?.siblings ?? []).map((s) => s.root)].filter((r): r is string => !!r);
    const dir = e.dir === null || e.dir.includes(HOLE) ? null : resolvePhysical(e.dir, fs);
    if (dir === null || e.gitDir !== null) add('BG1004', weakest(e.confidence, 'possible'), `\`${e.text}\`${via} may move the git dir of the repository it runs in`, target.root, e, evidence);
    else if (roots.includes(dir)) add('BG1004', e.confidence, `\`${e.text}\`${via} moves the git dir of ${dir}, shared by every checkout, elsewhere`, dir, e, evidence);
  }
  if (inRepo && writes('worktrees')) add('BG3004', e.confidence, `\`${cmd}\`${via} adds, removes or prunes worktrees of the shared repository`, target.root, e, evidence);
  const unknown = writes('unknown');
  if (!unknown && !writes('checkout')) return;
  // Closed world: a subcommand bashguard does not know (an alias, an extension) may write
  // anything git can, shared refs included.
  if (target.kind === 'worktree' && unknown) {
    add('BG2002', weakest(e.confidence, 'possible'), `\`${cmd}\`${via} is not a git command bashguard knows; it may write state every checkout shares`, target.root, e, evidence);
    return;
  }
  // The working tree, index and HEAD of a checkout: only a problem when it is another checkout.
  if (target.kind === 'worktree' || target.kind === 'scratch' || target.kind === 'allowed' || target.kind === 'device') return;
  if (target.kind === 'unknown') {
    add(unknown ? 'BG2002' : 'BG2001', weakest(e.confidence, 'possible'), `\`${cmd}\`${via} acts on a repository that cannot be determined statically (${target.root})`, null, e, evidence);
    return;
  }
  const what = target.kind === 'main' ? `the main checkout ${target.root}` : target.kind === 'sibling' ? `another worktree ${target.root}` : `a checkout outside the worktree (${target.root === '/' ? displayPath(e.dir) : target.root})`;
  if (unknown) {
    add('BG2002', e.confidence, `\`${cmd}\`${via} is not a git command bashguard knows, and it runs against ${what}`, target.root, e, evidence);
    return;
  }
  add('BG2001', e.confidence, `\`${cmd}\`${via} changes ${what}, not the worktree ${ctx.root}`, target.root, e, evidence);
}

/**
 * Refs live in the shared git dir, whichever checkout the call runs in. A branch another checkout
 * has checked out moves that checkout (BG2001); this worktree's own branch, and one the call
 * switches this checkout to, are inside the line; every other ref is shared state (BG3003).
 */
function refFindings(e: GitEffect, ctx: PolicyContext, root: string, via: string, add: Add): void {
  let shared: Confidence | null = null;
  let named = false;
  const strongest = (c: Confidence) => (shared === null || CONFIDENCE_RANK[c] > CONFIDENCE_RANK[shared] ? c : shared);
  for (const w of e.writes) {
    if (w.state === 'refs') {
      shared = strongest(w.confidence ? weakest(e.confidence, w.confidence) : e.confidence);
      named = true;
    }
    if (w.state !== 'branch') continue;
    const confidence = w.confidence ? weakest(e.confidence, w.confidence) : e.confidence;
    // A new branch the call checks out (`checkout -b "$x"`; git refuses a name that exists) is no other checkout's.
    if (w.switches && w.creates) continue;
    if (w.name.includes(HOLE)) {
      shared = strongest(confidence);
      continue;
    }
    const at = ctx.checkedOut?.(w.name);
    if (at && at !== ctx.root) add('BG2001', e.confidence, `\`${e.text}\`${via} moves the branch ${w.name}, checked out in ${at === ctx.layout?.main?.root ? 'the main checkout' : 'another worktree'} ${at}`, at, e, [...e.evidence, { range: e.range, note: `${at} has ${w.name} checked out` }]);
    if (!w.switches && at !== ctx.root) {
      shared = strongest(confidence);
      named = true;
    }
  }
  if (shared === null) return;
  if (named || e.shared !== undefined) add('BG3003', shared, `\`${e.text}\`${via} rewrites ${e.shared ?? 'refs'} shared by every checkout`, root, e, e.evidence);
  else add('BG3003', shared, `\`${e.text}\`${via} moves branches not known statically, which other checkouts may use`, root, e, e.evidence);
}

/** BG1005 for a git command in the worktree that drops or rewrites an existing control file. */
function controlFileFindings(e: GitEffect, risk: Extract<GitWrite, { state: 'drops' }>, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add): void {
  const base = e.dir === null || e.dir.includes(HOLE) ? null : resolvePhysical(e.dir, fs);
  const specs = risk.pathspecs === null ? null : base === null ? null : risk.pathspecs.map((p) => (p.startsWith('/') ? resolvePhysical(p, fs) : normalizeLogical(`${base}/${p}`)));
  const files = regions
    // (the worktree's own .git file is never dropped by these commands)
    .filter((r) => r.kind === 'protected' && r.root !== ctx.root && r.root !== `${ctx.root}/.git` && isInside(r.root, ctx.root) && (fs.exists?.(r.root) ?? false))
    .filter((r) => specs === null || specs.some((s) => pathspecReaches(s, r.root)));
  if (files.length === 0) return;
  const states = ctx.gitFileStates?.(ctx.root, files.map((f) => f.root)) ?? null;
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  for (const f of files) {
    const has = states?.get(f.root) ?? new Set<FileState>(['untracked', 'ignored', 'modified', 'clean']);
    const hit = [...has].filter((s) => risk.states.includes(s));
    if (hit.length === 0) continue;
    const how = states ? hit.join('/') : 'its git state unknown';
    add('BG1005', e.confidence, `\`${e.text}\`${via} ${risk.verb} ${f.root} (${how}): ${f.why ?? 'a protected file'}`, f.root, e, [...e.evidence, { range: e.range, note: `${f.root} exists and is ${states ? hit.join('/') : 'of unknown git state'}` }]);
  }
}

/** The protected regions strictly below `dir` (its physical path), the first per root. */
function protectedBelow(dir: string, regions: Region[]): Region[] {
  const seen = new Set<string>();
  const out: Region[] = [];
  for (const r of regions) {
    if (r.kind !== 'protected' || r.root === dir || !isInside(r.root, dir) || seen.has(r.root)) continue;
    seen.add(r.root);
    out.push(r);
  }
  return out;
}

/**
 * BG1005 for an unknown name written in a control directory: a directory that holds a protected
 * file (`.claude`, `.github/hooks`, the user config's directory, their physical images) below the
 * worktree's root. The worktree's root itself is not one: nearly every `> "$f"` would ask. A glob
 * in the last component only names existing files: it counts when it matches a protected one.
 */
function controlTail(e: WriteEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, dir: string, holeAt: number, globAt: number, add: Add): boolean {
  if (e.op === 'maybe-write' || e.op === 'unknown-command') return false;
  if (isInside(ctx.root, dir)) return false;
  const inner = protectedBelow(dir, regions);
  if (inner.length === 0) return false;
  const tail = e.path!.slice(e.path!.lastIndexOf('/', Math.min(...[holeAt, globAt].filter((i) => i >= 0))) + 1);
  let hits = inner;
  let confidence = e.confidence;
  if (holeAt < 0) {
    // A glob names existing entries: only a protected entry its first component can match counts
    // (`.claude/*.md/x` cannot reach `.claude/settings.json`).
    const re = globRegExp(tail.split('/')[0]!);
    hits = inner.filter((r) => re.test(r.root.slice(dir.length + 1).split('/')[0]!) && (fs.exists?.(r.root) ?? true));
    if (tail.includes('/')) confidence = weakest(confidence, 'likely');
  } else confidence = weakest(confidence, 'possible');
  if (hits.length === 0) return false;
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const names = hits.slice(0, 3).map((r) => r.root).join(', ') + (hits.length > 3 ? ', ...' : '');
  add('BG1005', confidence, `\`${e.command}\`${via} writes ${displayPath(`${dir}/${tail}`)}, a name not known statically inside ${dir}, which holds ${names}: ${hits[0]!.why ?? 'a protected file'}`, hits[0]!.root, e, e.evidence);
  return true;
}

/** A glob of one path component as a regular expression (`*`, `?`, `[...]`; a leading `.` is matched only by a literal one, as bash does). */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += i === 0 ? '(?!\\.)[^/]*' : '[^/]*';
    else if (c === '?') re += i === 0 ? '[^/.]' : '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
        re += `[${body}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return /^/;
  }
}

/**
 * BG1005 for a command that places an entry whose content it does not control name by name at an
 * ancestor of a protected file: a symlink (`ln -s ~/own .claude`: the client then reads the
 * agent's files as its settings), a moved entry, or a tree writer (`tar -x`, `cp -r` of a
 * directory: WriteEffect.treeWrite, which the command knowledge sets). Names known (`treeWrite.names`) are matched; otherwise the
 * names cannot be known and the finding is `possible` (ask).
 */
function placesTree(e: WriteEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, physical: string, add: Add): boolean {
  const link = e.op === 'link';
  const tree = e.treeWrite !== undefined;
  if (!link && e.op !== 'move' && !tree) return false;
  // `ln`/`mv` onto an existing directory put the entry inside it, under the source's name (a tree
  // writer with a known source says so through treeWrite): only a new entry at the path itself
  // (`ln -s ~/own .claude` with no `.claude` yet) stands where the client looks.
  if (!tree && (isInside(ctx.root, physical) || (fs.exists?.(physical) ?? true))) return false;
  let inner = protectedBelow(physical, regions);
  // The logical path too: `ln -s X .claude` where `.claude` does not exist yet resolves to itself,
  // but where a symlink already stands there, the link replaces nothing (ln refuses) or lands inside.
  const logical = normalizeLogical(e.path!);
  if (logical !== physical) inner = [...inner, ...protectedBelow(logical, regions).filter((r) => !inner.includes(r))];
  if (inner.length === 0) return false;
  let confidence = e.confidence;
  const names = e.treeWrite?.names;
  if (tree) {
    if (names) inner = inner.filter((r) => names.some((n) => pathspecReaches(normalizeLogical(`${physical}/${n}`), r.root) || isInside(normalizeLogical(`${physical}/${n}`), r.root)));
    else confidence = weakest(confidence, 'possible');
    if (inner.length === 0) return false;
  }
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const what = link ? 'links' : e.op === 'move' ? 'moves an entry to' : 'writes a tree of names not known statically into';
  add('BG1005', confidence, `\`${e.command}\`${via} ${what} ${physical}, which holds ${inner[0]!.root}${inner.length > 1 ? ` (and ${inner.length - 1} more)` : ''}: ${inner[0]!.why ?? 'a protected file'}`, inner[0]!.root, e, e.evidence);
  return true;
}

/** Writes that change an existing file's inode in place (through every hard link to it). */
const IN_PLACE: ReadonlySet<WriteEffect['op']> = new Set(['write', 'append', 'create', 'modify', 'chmod']);

/**
 * A write to an existing file with more than one link writes every name of its inode: BG1005
 * (or the git rule) when one is a control file or the shared git config/hooks, and `possible`
 * BG1002 when it sits on the device of the main checkout or a sibling worktree, whose files are
 * too many to compare (one of its other names may be there). One stat of the target; the
 * protected inodes are read only then, once.
 */
function sharedInode(e: WriteEffect, ctx: PolicyContext, regions: Region[], physical: string, add: Add): void {
  if (!IN_PLACE.has(e.op) || e.subtree || physical.includes(HOLE)) return;
  const st = (ctx.statLinks ?? statLinks)(physical);
  if (!st || st.nlink < 2) return;
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const evidence: Evidence[] = [...e.evidence, { range: e.range, note: `${physical} has ${st.nlink} links (inode ${st.ino})` }];
  const owner = ctx.inodeOwner?.(st.dev, st.ino) ?? null;
  if (owner) {
    const r = owner.region;
    const rule: RuleId = r.kind === 'git-dir' ? (r.detail === 'hooks' ? 'BG3002' : 'BG3001') : 'BG1005';
    const why = r.kind === 'git-dir' ? (r.detail === 'hooks' ? 'a git hook shared by every checkout' : 'the repository config shared by every checkout') : (r.why ?? 'a protected file');
    add(rule, e.confidence, `\`${e.command}\`${via} writes ${physical}, a hard link to ${owner.path} (the same inode): ${why}`, owner.path, e, evidence);
    return;
  }
  if (!ctx.protectedDevices?.().has(st.dev)) return;
  void regions;
  add('BG1002', weakest(e.confidence, 'possible'), `\`${e.command}\`${via} writes ${physical}, which shares its inode with ${st.nlink - 1} other name(s) on the main checkout's file system; one may be a file of the main checkout`, physical, e, evidence);
}

function statLinks(path: string): { nlink: number; dev: number; ino: number } | null {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st && st.isFile() ? { nlink: st.nlink, dev: st.dev, ino: st.ino } : null;
  } catch {
    return null;
  }
}

/** `sandbox` allows, contained: stricter than allow, looser than asking a person. */
export const DECISION_RANK: Record<Decision, number> = { allow: 0, sandbox: 1, ask: 2, deny: 3 };

export function decide(rule: RuleId, severity: Severity, confidence: Confidence, config: Config): Decision {
  if (rule === 'BG0001' || rule === 'BG0002') return capBySeverity(config.unanalyzable, severity);
  return capBySeverity(config.decisions[confidence], severity);
}

function capBySeverity(d: Decision, severity: Severity): Decision {
  if (severity === 'info') return 'allow';
  if (severity === 'warning' && d === 'deny') return 'ask';
  return d;
}

function combine(findings: Finding[]): Decision {
  let d: Decision = 'allow';
  for (const f of findings) if (DECISION_RANK[f.decision] > DECISION_RANK[d]) d = f.decision;
  return d;
}

const CONFIDENCE_RANK = { possible: 0, likely: 1, certain: 2 } as const;

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  // `cp a DEST` where DEST may be a directory: a finding on DEST/a adds nothing to one on DEST
  // (same rule, same command, at least as confident).
  const covered = (f: Finding) =>
    f.path !== null &&
    findings.some((g) => g !== f && g.rule === f.rule && g.range.start === f.range.start && g.path !== null && f.path!.startsWith(g.path.endsWith('/') ? g.path : `${g.path}/`) && CONFIDENCE_RANK[g.confidence] >= CONFIDENCE_RANK[f.confidence]);
  return findings.filter((f) => {
    if (covered(f)) return false;
    // A parse problem is reported once per line: one broken construct yields several ERROR
    // nodes, and the interpreter meets the same broken word again in every call of a function.
    const at = f.origin ? `${f.origin.file}:${f.origin.range.start}` : `${f.range.start}`;
    const k = f.rule === 'BG0001' ? `BG0001|${f.origin?.file ?? ''}|${f.origin?.range.line ?? f.range.line}` : `${f.rule}|${f.path}|${at}|${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function joinPhysical(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}
