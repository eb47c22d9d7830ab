import { type Example, command } from '../spec.js';

/**
 * The reserved words: syntax, which the parser and the IR builder handle. One reaches the
 * interpreter as a command only where the parser split a construct it does not build
 * (`coproc NAME { ...; }`): the word itself does nothing.
 */
export default command({
  names: ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', '{', '}', '!', '[[', ']]'],
  build: () => undefined,
  shell: () => true,
});

export const examples: readonly Example[] = [
  ['if true; then touch ../../x; fi', 'deny'],
  ['for f in a b; do touch "build/$f"; done', 'allow'],
];
