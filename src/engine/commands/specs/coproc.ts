import { displayPath } from '../../shell/paths.js';
import { type Example, command } from '../spec.js';

export default command({
  names: ['coproc'],
  build: () => undefined,
  /** `coproc cmd args`: runs cmd asynchronously in a subshell. */
  shell(inv, sh) {
    const words = inv.args;
    const first = words[0]?.value;
    const second = words[1]?.value;
    if (first === '{' || first === '(' || second === '{' || second === '(') {
      // `coproc NAME { ...; }`: a compound body the parser does not build; its parts were read as
      // separate commands, so the body's cwd changes are not known to stay inside it.
      sh.limitProblem('coproc with a compound body is not analyzed', `coproc ${words.map((w) => displayPath(w.value)).join(' ')}`, inv.range);
      const rest = words.slice(first === '{' || first === '(' ? 1 : 2);
      if (rest.length > 0) sh.runBackground(rest, inv);
      return true;
    }
    if (words.length > 0) sh.runBackground(words, inv);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['coproc touch ../../x', 'deny'],
  ['coproc cat build/log', 'allow'],
];
