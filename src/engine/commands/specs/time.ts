import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['time'],
  build: () => wrapper({ grammar: { short: 'fo', long: ['format', 'output'] }, inShell: true, assignments: true, writes: ['-o', '--output'] }),
});

export const examples: readonly Example[] = [
  ['time touch ../../x', 'deny'],
  ['time touch x', 'allow'],
  ['/usr/bin/time -o ../../x true', 'deny'],
  ['/usr/bin/time -o t.txt true', 'allow'],
];
