import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['ls'],
  build: () => readOnly,
  pathList: (_args, cwd) => cwd.replace(/\/$/, '') + '/',
});

export const examples: readonly Example[] = [
  // ls prints names in the cwd (`cat list | xargs rm` there asks: its paths are not known).
  ['cd /tmp && ls | xargs rm', 'allow'],
  ['ls ../../README.md', 'allow'],
];
