import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['img2pdf'],
  build: () => writes({ grammar: { short: 'oSC', long: ['output', 'pagesize', 'imgsize', 'border', 'title', 'author'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['img2pdf -o ../../x.pdf x.png', 'deny'],
  ['img2pdf -o x.pdf x.png', 'allow'],
];
