import { type Example, command } from '../spec.js';

/**
 * The reserved words: syntax, which the parser and the IR builder handle. One reaches the
 * interpreter as a command only where the grammar split a construct it does not build
 * (`coproc NAME { ...; }`, `! { ...; }`, `time for ...`): what bash runs there is not what the
 * split pieces say (the construct's body became the word's arguments), so it is not analyzed.
 */
export default command({
  names: ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', '{', '}', '!', '[[', ']]'],
  build: () => undefined,
  shell: (inv, sh) => {
    sh.limitProblem(`the reserved word \`${inv.shown}\` reached as a command: the parser split a construct (\`! { ...; }\`, \`time for ...\`) whose body is not analyzed`, inv.shown, inv.range);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['if true; then touch ../../x; fi', 'deny'],
  ['for f in a b; do touch "build/$f"; done', 'allow'],
  ['! { touch x; }', 'ask'],
  ['time for f in a; do touch x; done', 'ask'],
];
