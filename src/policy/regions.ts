/**
 * The regions of a workspace: where writes are allowed (the worktree, scratch dirs, configured
 * write roots, the worktree's own git bookkeeping) and what is protected (the main checkout,
 * sibling worktrees, shared git state, protected files). `classify` is the one "which region is
 * this path in" of the code base: the longest root wins, so a worktree nested in the main checkout
 * wins over it and a main checkout under /tmp stays protected.
 */
import type { Layout } from './layout/types.js';
import { isInside, normalizeLogical } from '../engine/shell/paths.js';

export type RegionKind = 'worktree' | 'main' | 'sibling' | 'git-dir' | 'protected' | 'scratch' | 'allowed' | 'device' | 'outside';

export interface Region {
  kind: RegionKind;
  root: string;
  /** For git-dir regions: what part of the common dir this is. */
  detail?: 'config' | 'hooks' | 'own' | 'shared';
  /** For protected regions: why (shown in findings). */
  why?: string;
}

export const DEVICE_ROOTS = ['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd', '/proc/self/fd', '/dev/zero', '/dev/random', '/dev/urandom', '/dev/full'];

export { scratchRoots } from './write-roots.js';

export interface RegionInput {
  /** Where writes are allowed (realpath'd). */
  root: string;
  layout: Layout | null;
  /** Scratch dirs (see scratchRoots). */
  scratch: string[];
  /** Configured extra write roots. */
  writeRoots: string[];
  /** The tool caches writable by default (./write-roots.ts `toolCacheRoots`). */
  caches?: { path: string; why: string }[];
  /** Protected paths with the reason each is protected. */
  protect: { path: string; why: string }[];
  /** The branch a linked worktree's HEAD names (its ref and reflog are its own), or null. */
  ownBranch?: string | null;
  /** HOME (absolute, normalized): never a write root, also where it lies in a scratch dir. */
  home?: string | null;
}

/** Builds the regions for a layout: the worktree, protected checkouts, the git dir, write roots. */
export function buildRegions(input: RegionInput): Region[] {
  const regions: Region[] = [{ kind: 'worktree', root: input.root }];
  const l = input.layout;
  if (l) {
    if (l.main?.root && l.main.root !== input.root) regions.push({ kind: 'main', root: l.main.root });
    for (const s of l.siblings) if (s.root && s.root !== input.root) regions.push({ kind: 'sibling', root: s.root });
    const common = l.current.commonDir;
    regions.push({ kind: 'git-dir', root: common, detail: 'shared' });
    regions.push({ kind: 'git-dir', root: `${common}/config`, detail: 'config' });
    regions.push({ kind: 'git-dir', root: `${common}/hooks`, detail: 'hooks' });
    // Git's own writes for this worktree's commits are legitimate. From a linked worktree, those
    // are new objects and its own branch's ref and reflog: every other ref (another branch, a new
    // one, a tag, the stash, packed-refs) is shared, as the enforcement holds it (src/layers/sandbox/git-refs.ts).
    const linked = l.current.kind === 'linked-worktree';
    for (const own of linked ? ['objects', 'lfs', 'modules', 'rr-cache'] : ['objects', 'refs', 'logs', 'packed-refs', 'FETCH_HEAD', 'lfs', 'modules', 'rr-cache']) {
      regions.push({ kind: 'git-dir', root: `${common}/${own}`, detail: 'own' });
    }
    if (linked && input.ownBranch) for (const own of ['refs/heads', 'logs/refs/heads']) regions.push({ kind: 'git-dir', root: `${common}/${own}/${input.ownBranch}`, detail: 'own' });
    if (l.current.kind === 'linked-worktree') regions.push({ kind: 'git-dir', root: l.current.gitDir, detail: 'own' });
    else regions.push({ kind: 'git-dir', root: common, detail: 'own' });
  }
  for (const r of input.scratch) {
    regions.push({ kind: 'scratch', root: r });
    // A root inside a scratch dir (a clone under /tmp in CI, a worktree under /var/tmp) must not
    // hide writes into its own surroundings: the top directory holding it is not scratch.
    if (input.root !== r && isInside(input.root, r)) {
      const top = r.replace(/\/+$/, '') + '/' + input.root.slice(r.replace(/\/+$/, '').length + 1).split('/')[0];
      if (top !== input.root) regions.push({ kind: 'outside', root: top, why: `the directory holding the root ${input.root}, inside the scratch dir ${r}` });
    }
    // A HOME in a scratch dir (an orchestrator's or a container's HOME under /tmp or $TMPDIR) is
    // still HOME: what lands there (`~/.ssh`, `~/.profile`, `~/.local/bin`) runs later outside
    // any sandbox. Its tool caches and the worktree, where they lie in it, stay writable (longer
    // roots); a HOME that is the scratch dir itself, or that the trusted config names as a write
    // root, stays writable (doctor warns).
    const home = input.home;
    if (home && home !== r && isInside(home, r) && !isInside(home, input.root) && !input.writeRoots.some((w) => isInside(home, w))) {
      regions.push({ kind: 'outside', root: home, why: `HOME, inside the scratch dir ${r}: HOME is not a write root` });
    }
  }
  for (const r of input.writeRoots) regions.push({ kind: 'allowed', root: r });
  for (const c of input.caches ?? []) regions.push({ kind: 'allowed', root: c.path, why: c.why });
  for (const d of DEVICE_ROOTS) regions.push({ kind: 'device', root: d });
  for (const p of input.protect) regions.push({ kind: 'protected', root: normalizeLogical(p.path), why: p.why });
  return regions;
}

/**
 * Regions by root, for classify: a path lies inside a root (with no trailing `/`) exactly when
 * the root is the path itself or the path cut before one of its slashes, so a path of k
 * components needs k lookups instead of a comparison with every region (60 or so: each agent
 * client's settings in two checkouts and the home directory). Roots that are `/` or end in `/`
 * are compared one by one. Built once per regions array (rebuilt if its length changes).
 */
interface RegionIndex {
  length: number;
  /**
   * The regions of each root, and an empty list for each root cut before one of its slashes
   * (after the first character): a path cut that is missing here begins no root.
   */
  byRoot: Map<string, number[]>;
  other: number[];
  /**
   * The first region's root (the worktree's, where most paths are) with the regions of it and of
   * each root it lies in, as the walk below would collect them: a path under it skips the lookups
   * of its components up to there.
   */
  first: { root: string; hits: number[] } | null;
}
const indexes = new WeakMap<Region[], RegionIndex>();

function indexOf(regions: Region[]): RegionIndex {
  let idx = indexes.get(regions);
  if (idx && idx.length === regions.length) return idx;
  idx = { length: regions.length, byRoot: new Map(), other: [], first: null };
  const roots = new Set<string>();
  regions.forEach((r, i) => {
    if (r.root === '/' || r.root.endsWith('/') || !r.root.startsWith('/')) idx!.other.push(i);
    else {
      const list = idx!.byRoot.get(r.root);
      if (list) list.push(i);
      else idx!.byRoot.set(r.root, [i]);
      roots.add(r.root);
    }
  });
  for (const root of roots) {
    for (let cut = root.indexOf('/', 1); cut >= 0; cut = root.indexOf('/', cut + 1)) {
      const prefix = root.slice(0, cut);
      if (!idx.byRoot.has(prefix)) idx.byRoot.set(prefix, []);
    }
  }
  const first = regions[0]?.root;
  if (first !== undefined && idx.byRoot.has(first)) {
    const hits: number[] = [];
    for (let cut = first.indexOf('/', 1); ; cut = first.indexOf('/', cut + 1)) {
      hits.push(...idx.byRoot.get(cut < 0 ? first : first.slice(0, cut))!);
      if (cut < 0) break;
    }
    idx.first = { root: first, hits };
  }
  indexes.set(regions, idx);
  return idx;
}

/** The most specific region containing a physical path. */
export function classify(path: string, regions: Region[]): Region {
  const idx = indexOf(regions);
  // The candidates, in the regions' order (the order decides among equal roots of equal rank).
  const hits: number[] = [];
  for (const i of idx.other) if (isInside(path, regions[i]!.root)) hits.push(i);
  if (path.startsWith('/')) {
    let from = 1;
    const first = idx.first;
    if (first && path.length > first.root.length && path.charCodeAt(first.root.length) === 47 && path.startsWith(first.root)) {
      // (the choice below does not depend on the order of the hits)
      hits.push(...first.hits);
      from = first.root.length + 1;
    }
    for (let cut = path.indexOf('/', from); ; cut = path.indexOf('/', cut + 1)) {
      const list = idx.byRoot.get(cut < 0 ? path : path.slice(0, cut));
      // A cut that begins no root: no longer one is a root either.
      if (list === undefined) break;
      if (list.length > 0) hits.push(...list);
      if (cut < 0) break;
    }
  }
  // Longer root wins; on a tie, a protected region wins over a permissive one, and then the
  // earlier region (the order of `regions`; compared here instead of sorting the hits).
  let bi = -1;
  for (const i of hits) {
    if (bi < 0) {
      bi = i;
      continue;
    }
    const r = regions[i]!;
    const best = regions[bi]!;
    if (r.root.length !== best.root.length) {
      if (r.root.length > best.root.length) bi = i;
      continue;
    }
    const pr = protects(r);
    const pb = protects(best);
    if ((pr && !pb) || (pr === pb && i < bi)) bi = i;
  }
  return bi >= 0 ? regions[bi]! : { kind: 'outside', root: '/' };
}

/** Whether a region protects what is in it (from writes by the agent). */
export function protects(r: Region): boolean {
  return r.kind === 'main' || r.kind === 'sibling' || r.kind === 'protected' || (r.kind === 'git-dir' && r.detail !== 'own');
}

/** Whether the agent may write in a region. */
export function allowedRegion(r: Region): boolean {
  return r.kind === 'worktree' || r.kind === 'scratch' || r.kind === 'allowed' || r.kind === 'device' || (r.kind === 'git-dir' && r.detail === 'own');
}
