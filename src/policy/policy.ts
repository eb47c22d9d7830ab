/**
 * Policy: the worktree layout and its write roots turn effects into findings, and findings into
 * one decision. Regions are matched by the longest root, so a worktree nested in the main
 * checkout wins over it, and the main checkout under /tmp stays protected.
 */
import { HOLE, type Effect, type GitEffect, type WriteEffect, type Evidence } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { Range } from '../syntax/ir.js';
import type { Layout } from '../layout/types.js';
import { basenameOf, dirnameOf, displayPath, isInside, normalizeLogical } from '../interpret/paths.js';
import { cachedFs, nodeFs, resolvePhysical, type PhysicalFs } from './physical.js';
import { ruleById, type RuleId, type Severity } from '../rules/catalog.js';
import type { Config, Decision } from './config.js';
import { controlRisk, pathspecReaches, type FileState } from './git-control.js';
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
}

export interface Verdict {
  decision: Decision;
  findings: Finding[];
}

export function evaluate(effects: Effect[], ctx: PolicyContext): Verdict {
  // A third of the corpus has no effect at all: nothing to set up.
  if (effects.length === 0) return { decision: 'allow', findings: [] };
  // Symlinks the command itself creates (`ln -s /repo l && touch l/x`) are layered over the
  // real file system, in execution order, so later paths through them resolve where bash would.
  const created = new Map<string, string>();
  // The layout's realpath'd directories hold no symlink: no lstat for them or their parents
  // (only on the real file system, which is where discovery realpath'd them).
  const current = ctx.layout?.current;
  const disk = cachedFs(ctx.fs, ctx.fs === nodeFs ? [ctx.root, current?.root, current?.gitDir, current?.commonDir, ctx.layout?.main?.root] : []);
  const fs: PhysicalFs = {
    readlink: (p) => created.get(p) ?? disk.readlink(p),
    exists: disk.exists,
    // Only while the command created no symlink (one could sit on a known directory's path).
    knownPrefix: (p) => (created.size === 0 && disk.knownPrefix ? disk.knownPrefix(p) : 0),
  };
  const regions = ctx.regions;
  const findings: Finding[] = [];
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
    });
  };
  for (const e of effects) {
    if (e.kind === 'write') {
      writeFinding(e, ctx, regions, fs, add);
      if (e.linkTarget !== undefined && e.path !== null && !e.path.includes(HOLE)) {
        const slash = e.path.replace(/\/+$/, '').lastIndexOf('/');
        const dir = resolvePhysical(e.path.slice(0, slash) || '/', fs);
        created.set(`${dir === '/' ? '' : dir}/${e.path.replace(/\/+$/, '').slice(slash + 1)}`, e.linkTarget);
      }
    }
    else if (e.kind === 'git') gitFinding(e, ctx, regions, fs, add);
    else {
      const rule: RuleId = e.category === 'syntax' ? 'BG0001' : e.category === 'analysis-limit' ? 'BG0002' : e.reason.startsWith('sources ') ? 'BG4003' : 'BG4002';
      const via = e.via.length ? ` (inside ${e.via.join(' > ')})` : '';
      add(rule, 'possible', `${e.reason}${via}`, null, e, []);
    }
  }
  return { decision: combine(findings), findings: dedupe(findings) };
}

type Add = (rule: RuleId, confidence: Confidence, message: string, path: string | null, e: Effect, evidence: Evidence[]) => void;

function writeFinding(e: WriteEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add): void {
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
  // `rm link` and `rm -r link` remove the link itself (`rm -r link/` goes through it): only its
  // directory is resolved through symlinks.
  const noFollow = e.op === 'delete' && unknownAt < 0 && !knownPart.endsWith('/');
  const physical = noFollow ? joinPhysical(resolvePhysical(dirnameOf(normalizeLogical(knownPart)) || '/', fs), basenameOf(normalizeLogical(knownPart))) : resolvePhysical(knownPart, fs);
  const region = classify(physical, regions);
  let confidence = e.confidence;
  if (unknownAt >= 0) {
    // Unknown text after a directory that contains the worktree may still land inside it; a glob
    // confined to the last component (it cannot match `/`) names a direct child of that directory.
    const globInLastComponent = holeAt < 0 && globAt >= 0 && !e.path.slice(globAt).includes('/');
    if (isInside(ctx.root, physical) && physical !== ctx.root && !e.subtree && !globInLastComponent) confidence = 'possible';
    if (allowedRegion(region)) return;
  } else if (allowedRegion(region)) {
    if (onlyProtected) return;
    // A recursive write at an ancestor of the worktree reaches beyond it.
    if (!(e.subtree && isInside(ctx.root, physical) && physical !== ctx.root)) {
      // ... and one at an ancestor of a protected file (`rm -rf .claude`) reaches it.
      const removes = e.subtree && (e.op === 'delete' || e.op === 'move');
      const inner = removes ? regions.find((r) => r.kind === 'protected' && r.root !== physical && isInside(r.root, physical) && (fs.exists?.(r.root) ?? true)) : undefined;
      if (inner) add('BG1005', confidence, `\`${e.command}\`${e.via.length ? ` (via ${e.via.join(' > ')})` : ''} ${e.op === 'delete' ? 'deletes' : 'writes'} ${physical}, which holds ${inner.root}: ${inner.why ?? 'a protected file'}`, inner.root, e, e.evidence);
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

function describeRegion(r: Region, ctx: PolicyContext): string {
  // A write classified in the worktree is reported only when it is recursive at an ancestor.
  return r.kind === 'worktree' ? `which reaches outside the worktree ${ctx.root}` : `outside the worktree ${ctx.root}`;
}

/** Which checkout a git invocation really acts on. */
function gitTarget(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs): { kind: RegionKind | 'unknown'; root: string } {
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
    if (e.workTree !== null && !e.workTree.includes(HOLE)) return regionOfDir(resolvePhysical(e.workTree, fs), regions);
    return regionOfDir(gd, regions);
  }
  if (e.workTree !== null) {
    if (e.workTree.includes(HOLE)) return { kind: 'unknown', root: displayPath(e.workTree) };
    return regionOfDir(resolvePhysical(e.workTree, fs), regions);
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

function gitFinding(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add): void {
  if (e.access === 'read') return;
  const target = gitTarget(e, ctx, regions, fs);
  const via = e.via.length ? ` (via ${e.via.join(' > ')})` : '';
  const cmd = `git ${e.subcommand ?? ''}`.trim();
  const inRepo = target.kind === 'worktree' || target.kind === 'main' || target.kind === 'sibling' || target.kind === 'unknown';
  const evidence = e.evidence;
  if (target.kind === 'worktree' && e.access === 'checkout') controlFileFindings(e, ctx, regions, fs, add);
  switch (e.access) {
    case 'config':
      if (inRepo) add('BG3001', e.confidence, `\`${cmd}\`${via} writes the repository config, shared by every checkout (use \`git config --worktree\` for this worktree only)`, target.root, e, evidence);
      return;
    case 'hooks':
      if (inRepo) add('BG3002', e.confidence, `\`${cmd}\`${via} changes which hooks run for every checkout of the repository`, target.root, e, evidence);
      return;
    case 'refs':
      if (inRepo) add('BG3003', e.confidence, `\`${e.text}\`${via} rewrites shared refs seen by every checkout`, target.root, e, evidence);
      return;
    case 'worktrees':
      if (inRepo) add('BG3004', e.confidence, `\`${cmd}\`${via} adds, removes or prunes worktrees of the shared repository`, target.root, e, evidence);
      return;
  }
  // checkout / unknown: only a problem when it acts on another checkout.
  if (target.kind === 'worktree' || target.kind === 'scratch' || target.kind === 'allowed' || target.kind === 'device') return;
  if (target.kind === 'unknown') {
    add(e.access === 'unknown' ? 'BG2002' : 'BG2001', weakest(e.confidence, 'possible'), `\`${cmd}\`${via} acts on a repository that cannot be determined statically (${target.root})`, null, e, evidence);
    return;
  }
  const what = target.kind === 'main' ? `the main checkout ${target.root}` : target.kind === 'sibling' ? `another worktree ${target.root}` : `a checkout outside the worktree (${target.root === '/' ? displayPath(e.dir) : target.root})`;
  if (e.access === 'unknown') {
    add('BG2002', e.confidence, `\`${cmd}\`${via} is not a git command bashguard knows, and it runs against ${what}`, target.root, e, evidence);
    return;
  }
  add('BG2001', e.confidence, `\`${cmd}\`${via} changes ${what}, not the worktree ${ctx.root}`, target.root, e, evidence);
}

/** BG1005 for a git command in the worktree that drops or rewrites an existing control file. */
function controlFileFindings(e: GitEffect, ctx: PolicyContext, regions: Region[], fs: PhysicalFs, add: Add): void {
  const risk = controlRisk(e.subcommand, e.args);
  if (!risk) return;
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
    const hit = [...has].filter((s) => risk.states.has(s));
    if (hit.length === 0) continue;
    const how = states ? hit.join('/') : 'its git state unknown';
    add('BG1005', e.confidence, `\`${e.text}\`${via} ${risk.verb} ${f.root} (${how}): ${f.why ?? 'a protected file'}`, f.root, e, [...e.evidence, { range: e.range, note: `${f.root} exists and is ${states ? hit.join('/') : 'of unknown git state'}` }]);
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

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    // A parse problem is reported once per line: one broken construct yields several ERROR
    // nodes, and the interpreter meets the same broken word again in every call of a function.
    const k = f.rule === 'BG0001' ? `BG0001|${f.range.line}` : `${f.rule}|${f.path}|${f.range.start}|${f.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function joinPhysical(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}
