import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['pandoc'],
  build: () => writes({ grammar: { short: 'ofltMVdHBAcs', long: ['output', 'from', 'to', 'read', 'write', 'template', 'metadata', 'variable', 'data-dir', 'css', 'include-in-header', 'defaults', 'resource-path', 'extract-media', 'pdf-engine', 'lua-filter', 'filter', 'reference-doc'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write', '--extract-media': 'extract' } }),
});

export const examples: readonly Example[] = [
  ['pandoc -o ../../x.html x.md', 'deny'],
  ['pandoc -o x.html x.md', 'allow'],
];
