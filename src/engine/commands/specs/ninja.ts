import { type Example, command } from '../spec.js';
import { project } from '../kinds.js';

export default command({
  names: ['ninja'],
  build: () => project(['-C'], { short: 'Cfjkl' }, [], ['-f', '-j', '-k', '-l']),
});

export const examples: readonly Example[] = [
  ['ninja -C ../..', 'ask'],
  ['ninja -C build', 'allow'],
];
