import { type Example, command } from '../spec.js';
import { silentBuiltin } from '../kinds.js';

export default command({
  names: ['break', 'continue'],
  build: () => silentBuiltin,
  /** `break [N]`, `continue [N]`: a count not known statically leaves the path as it is (it goes on: more is analyzed, not less). */
  shell(inv, sh) {
    const n = inv.args.length === 0 ? 1 : /^[1-9]\d*$/.test(inv.args[0]!.value) ? Number(inv.args[0]!.value) : null;
    if (n !== null) sh.loopJump(inv.st, inv.name === 'break' ? 'break' : 'continue', n);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['for f in a b; do break; done', 'allow'],
  ['for d in . ../..; do continue; touch "$d/x"; done', 'allow'],
  // The loop leaves after its first pass: `../..` is never touched.
  ['for d in . ../..; do touch "$d/x"; break; done', 'allow'],
  ['for d in . ../..; do touch "$d/x"; done', 'deny'],
];
