import { type Example, command } from '../spec.js';
import { writes, commandOptions } from '../kinds.js';

export default command({
  names: ['sort'],
  build: () => commandOptions(writes({ grammar: { short: 'ktoST', long: ['key', 'field-separator', 'output', 'buffer-size', 'temporary-directory', 'parallel', 'batch-size', 'compress-program', 'files0-from', 'random-source', 'sort'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }), ['--compress-program']),
});

export const examples: readonly Example[] = [
  ['sort -o ../../x x', 'deny'],
  ['sort ../../README.md', 'allow'],
];
