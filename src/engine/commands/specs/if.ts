import { type Example, command } from '../spec.js';

/**
 * The reserved words: syntax, which the parser and the IR builder handle. One reaches the
 * interpreter as a command only where the grammar split a construct it does not build
 * (`coproc NAME { ...; }`, `! { ...; }`, `time for ...`): what bash runs there is not what the
 * split pieces say (the construct's body became the word's arguments), so it is not analyzed. That
 * is tree-sitter misreading the text (BG0001), so the hook asks bash whether it reads the command
 * at all (src/engine/parse/shell-syntax.ts): `sum=0 for i in 1; do ...` is a syntax error there,
 * runs nothing, and is allowed.
 */
export default command({
  names: ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', '{', '}', '!', '[[', ']]'],
  build: () => undefined,
  shell: (inv, sh) => {
    sh.misreadProblem(`the reserved word \`${inv.shown}\` reached as a command: tree-sitter split a construct (\`! { ...; }\`, \`time for ...\`), so the code in it is not analyzed`, inv.shown, inv.range);
    return true;
  },
});

export const examples: readonly Example[] = [
  ['if true; then touch ../../x; fi', 'deny'],
  ['for f in a b; do touch "build/$f"; done', 'allow'],
  ['! { touch x; }', 'ask'],
  ['time for f in a; do touch x; done', 'ask'],
];
