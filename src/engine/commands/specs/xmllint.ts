import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['xmllint'],
  build: () => writes({ grammar: { long: ['output', 'path', 'dtdvalid', 'relaxng', 'schema', 'xpath', 'encode', 'pretty', 'maxmem'] }, operands: 'none', op: 'write', optionWrites: { '--output': 'write' } }),
});

export const examples: readonly Example[] = [
  ['xmllint --output ../../x.xml y.xml', 'deny'],
  ['xmllint ../../x.xml', 'allow'],
];
