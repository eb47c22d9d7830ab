/**
 * The working directory: where `cd`, `pushd`, `popd` (and `git -C`, `tar -C` ...) lead, resolved
 * the way bash does (logically by default, physically with -P), and the cwd change recorded on
 * the timeline.
 */
import type { Range } from '../syntax/ir.js';
import { HOLE, type CwdEvent, type Evidence } from '../effects/types.js';
import { weakest } from '../effects/confidence.js';
import type { CwdValue, State } from '../shell/state.js';
import { collapseHoleDots, dirnameOf, displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import type { Field } from './expand.js';

/** Physical path of an existing directory, or null (Host#realpath). */
export type Realpath = (path: string) => string | null;

/** Sets the cwd (cd, pushd, popd) and records the timeline. */
export function setCwd(timeline: CwdEvent[], st: State, next: CwdValue, range: Range, command: string): void {
  st.oldpwd = st.cwd;
  st.cwd = next;
  // bash sets $OLDPWD to the cwd it left: a value the script assigned before is gone.
  const assigned = st.vars.get('OLDPWD');
  if (assigned && !assigned.fromEnvironment) st.vars.delete('OLDPWD');
  if (next.paths?.length === 1) {
    st.vars.set('PWD', { value: next.paths[0]!, confidence: next.confidence, evidence: next.evidence, exported: true, fromEnvironment: false });
  }
  timeline.push({ range, command, cwd: next.paths, confidence: next.confidence });
}

/** Resolves a `cd` target the way bash does (logical by default, physical with -P). */
export function resolveCd(realpath: Realpath | undefined, st: State, target: Field, range: Range, physical: boolean, how = 'cd'): CwdValue {
  const text = displayPath(target.value);
  const note = (n: string): Evidence => ({ range, note: n });
  const who = how === 'cd' ? 'cwd' : `${how.split(' ')[0]}'s directory`;
  if (target.value.includes(HOLE) && !target.glob && !target.value.startsWith(HOLE) && (target.value.startsWith('/') || st.cwd.paths?.length === 1)) {
    // `cd "$(mktemp -d)"`, `cd /repo/$X`: the directory is unknown but lies under a known one;
    // keep the known part so later relative paths still resolve below it.
    const joined = collapseHoleDots(normalizeLogical(joinPath(target.value.startsWith('/') ? '/' : st.cwd.paths![0]!, target.value)));
    const under = joined.slice(0, joined.indexOf(HOLE));
    return {
      paths: [joined],
      confidence: weakest(target.confidence, 'possible'),
      evidence: [...target.evidence, note(`${who} became a directory not known statically, under ${under || '/'}, at \`${how} ${text}\` (${range.line}:${range.column})`)].slice(-8),
      changed: true,
    };
  }
  if (target.value.includes(HOLE) || target.glob) {
    const known = target.value.startsWith('/') ? target.value.slice(0, target.value.indexOf(HOLE) >= 0 ? target.value.indexOf(HOLE) : undefined) : null;
    return {
      paths: null,
      confidence: 'possible',
      evidence: [...target.evidence, note(`${who} became unknown at \`${how} ${text}\` (${range.line}:${range.column})${known ? ` (somewhere under ${dirnameOf(known + 'x')})` : ''}`)],
      changed: true,
    };
  }
  const bases = target.value.startsWith('/') ? ['/'] : st.cwd.paths;
  if (bases === null) {
    return { paths: null, confidence: 'possible', evidence: [...st.cwd.evidence, note(`\`${how} ${text}\` from an unknown cwd`)], changed: true };
  }
  const paths = [...new Set(bases.map((b) => {
    const logical = normalizeLogical(joinPath(b, target.value));
    if (!physical) return logical;
    return physicalPath(realpath, b, target.value) ?? logical;
  }))];
  const conf = target.value.startsWith('/') ? target.confidence : weakest(target.confidence, st.cwd.confidence);
  const where = paths.length === 1 ? paths[0]! : `one of ${paths.join(', ')}`;
  return {
    paths,
    confidence: conf,
    evidence: [
      ...(target.value.startsWith('/') ? [] : st.cwd.evidence),
      ...target.evidence,
      note(`${who} became ${where} at \`${how} ${text}\` (${range.line}:${range.column})`),
    ].slice(-8),
    changed: true,
  };
}

/** `cd -P`: like the kernel, resolve symlinks in what comes before each `..`. */
function physicalPath(realpath: Realpath | undefined, base: string, rel: string): string | null {
  if (!realpath) return null;
  let cur = rel.startsWith('/') ? '/' : base;
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      const real = realpath(cur) ?? normalizeLogical(cur);
      cur = dirnameOf(real) || '/';
    } else cur = joinPath(cur, seg);
  }
  return realpath(cur) ?? normalizeLogical(cur);
}
