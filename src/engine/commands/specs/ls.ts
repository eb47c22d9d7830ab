import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';
import { cwdPrefix, printsUnderCwd } from '../path-list.js';

export default command({
  names: ['ls'],
  build: () => readOnly,
  pathList: (args, cwd) => (printsUnderCwd(args) ? cwdPrefix(cwd) : null),
});

export const examples: readonly Example[] = [
  // ls prints names in the cwd (`cat list | xargs rm` there asks: its paths are not known).
  ['cd /tmp && ls | xargs rm', 'allow'],
  ['ls ../../README.md', 'allow'],
  // ... unless it is given paths elsewhere, which it prints as given.
  ['ls -d ../../README.md | xargs rm', 'ask'],
];
