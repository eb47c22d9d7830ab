import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['command'],
  build: () => wrapper({ grammar: {}, noRunFlags: ['-v', '-V'], inShell: true }),
});

export const examples: readonly Example[] = [
  ['command touch ../../x', 'deny'],
  ['command -v touch', 'allow'],
];
