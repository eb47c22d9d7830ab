import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['pygmentize'],
  build: () => writes({ grammar: { short: 'lfFoOPaS' }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
});

export const examples: readonly Example[] = [
  ['pygmentize -o ../../x.html x.py', 'deny'],
  ['pygmentize x.py', 'allow'],
];
