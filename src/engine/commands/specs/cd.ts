import { HOLE } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import type { Invocation } from '../context.js';
import type { CwdValue } from '../../shell/state.js';
import { displayPath, joinPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';
import { changeDir } from '../dir-stack.js';

function cdTarget(inv: Invocation): { target: Field | null; physical: boolean; dash: boolean; extra: boolean } {
  // `set -P` / `set -o physical` make -P the default; `cd -L` still overrides it.
  let physical = inv.st.extras.shopts.has('physical');
  let i = 0;
  for (; i < inv.args.length; i++) {
    const v = inv.args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (/^-[LPe@]+$/.test(v)) {
      if (v.includes('P')) physical = true;
      if (v.includes('L')) physical = false;
      continue;
    }
    break;
  }
  const t = inv.args[i] ?? null;
  return { target: t, physical, dash: t?.value === '-', extra: inv.args.length > i + 1 };
}

const cd: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv, interp) {
    const { target, physical, dash, extra } = cdTarget(inv);
    let next: CwdValue;
    // The directory as named: bash tries CDPATH's entries and cdable_vars' variable in turn, and this one too.
    let plain: CwdValue | undefined;
    if (dash) {
      const oldVar = inv.st.vars.get('OLDPWD');
      next =
        oldVar && !oldVar.fromEnvironment && !oldVar.value.includes(HOLE)
          ? interp.resolveCd(inv.st, { value: oldVar.value, confidence: oldVar.confidence, evidence: oldVar.evidence, glob: false }, inv.range, physical)
          : inv.st.oldpwd ?? { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`cd -` with no previous directory known' }], changed: true };
      interp.emitOutput((next.paths?.[0] ?? HOLE) + '\n');
    } else if (!target) {
      const home = inv.st.vars.get('HOME');
      next = home
        ? interp.resolveCd(inv.st, { value: home.value, confidence: home.confidence, evidence: [], glob: false }, inv.range, physical)
        : { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`cd` to an unknown $HOME' }], changed: true };
    } else {
      next = interp.resolveCd(inv.st, target, inv.range, physical);
      plain = next;
      // `shopt -s cdable_vars`: a name that is not a directory is a variable holding one.
      if (inv.st.extras.shopts.has('cdable_vars') && /^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value)) {
        const v = inv.st.vars.get(target.value);
        if (v) {
          const alt = interp.resolveCd(inv.st, { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false }, inv.range, physical);
          const note = { range: inv.range, note: `cdable_vars: \`cd ${target.value}\` may go to $${target.value} (${displayPath(v.value)})` };
          next = alt.paths && next.paths
            ? { paths: [...new Set([...alt.paths, ...next.paths])], confidence: 'likely', evidence: [...alt.evidence, note], changed: true }
            : { paths: null, confidence: 'possible', evidence: [...alt.evidence, note], changed: true };
        }
      }
      // CDPATH: bash tries each entry before the cwd for a name not starting with /, ./ or ../.
      const cdpath = inv.env.get('CDPATH')?.value ?? inv.st.vars.get('CDPATH')?.value;
      if (cdpath && !/^(\/|\.\/|\.\.\/|\.$|\.\.$)/.test(target.value) && !target.value.includes(HOLE) && next.paths) {
        const candidates = cdpath.split(':').filter((d) => d !== '' && d !== '.');
        if (candidates.length > 0) {
          const alt = candidates.map((d) => (d.includes(HOLE) ? null : interp.resolveCd(inv.st, { ...target, value: joinPath(d, target.value) }, inv.range, physical)));
          const note = { range: inv.range, note: `CDPATH=${displayPath(cdpath)}: \`cd ${target.value}\` may go below any of its entries` };
          // An entry not known statically (or a cd that resolves nowhere known) may lead anywhere.
          if (alt.some((a) => a === null || a.paths === null)) next = { paths: null, confidence: 'possible', evidence: [...next.evidence, note], changed: true };
          else {
            const paths = [...new Set([...alt.flatMap((a) => a!.paths!), ...next.paths])];
            next = { paths, confidence: 'likely', evidence: [...next.evidence, { range: inv.range, note: `CDPATH=${cdpath}: \`cd ${target.value}\` may go to ${paths.join(' or ')}` }], changed: true };
          }
        }
      }
    }
    // bash leaves the shell where it was when the directory cannot be entered (or when given more
    // than one, from 5.0 on): the next command runs there, and `cd x && ...` does not.
    const label = `${inv.shown} ${inv.args.map((a) => displayPath(a.value)).join(' ')}`.trim();
    changeDir(interp, inv.st, next, (to) => interp.setCwd(inv.st, to, inv.range, label), extra, plain ?? next);
  },
};

export default command({
  names: ['cd'],
  build: () => cd,
});

export const examples: readonly Example[] = [
  ['cd ../.. && touch x', 'deny'],
  ['cd build && touch x', 'allow'],
];
