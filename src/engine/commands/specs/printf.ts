import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, type ShellHandler, command } from '../spec.js';
import { formatPrintf } from '../printf-format.js';
import { readVar } from '../kinds.js';

const printf: ShellHandler = (inv, sh) => {
  let args = inv.args;
  let target: string | null = null;
  if (args[0]?.value === '-v' && args[1]) {
    target = args[1].value;
    args = args.slice(2);
  }
  if (args[0]?.value === '--') args = args.slice(1);
  const fmt = args[0];
  const out = fmt ? formatPrintf(fmt.value, args.slice(1).map((a) => a.value)) : '';
  if (target === null) {
    sh.emitOutput(out);
    return true;
  }
  const conf = [fmt, ...args].reduce<'certain' | 'likely' | 'possible'>((c, f) => (f && f.confidence === 'possible' ? 'possible' : c), 'likely');
  const sub = /^([A-Za-z_][A-Za-z0-9_]*)\[(.*)\]$/.exec(target);
  const ev = [...(args[1]?.evidence ?? []), { range: inv.range, note: `${target}=${displayPath(out)} set by printf -v` }];
  if (sub) sh.assignVariable(inv.st, { name: target, append: false, value: null, unknownValue: false, range: inv.range }, { value: out, confidence: conf, evidence: ev, glob: false }, {});
  else sh.setVar(inv.st, target, out, out.includes(HOLE) ? 'possible' : conf, ev);
  return true;
};

export default command({
  names: ['printf'],
  shell: printf,
  build: () => ({ category: 'builtin', run: (inv, interp) => (inv.args[0]?.value === '-v' ? readVar.run(inv, interp) : undefined) }),
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    if (vals[0] === '-v') return '';
    const fmt = vals[0] ?? '';
    if (fmt === '%s' || fmt === '%s\n') return vals.slice(1).join('') + (fmt.endsWith('\n') ? '\n' : '');
    if (!fmt.includes('%') && !fmt.includes('\\')) return fmt;
    return HOLE;
  },
});

export const examples: readonly Example[] = [
  ['printf -v d %s ../..; touch "$d/x"', 'deny'],
  ['printf "%s\\n" x > y', 'allow'],
];
