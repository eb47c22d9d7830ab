import { type Example, command } from '../spec.js';
import { writes } from '../kinds.js';

export default command({
  names: ['wkhtmltopdf'],
  build: () => writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
});

export const examples: readonly Example[] = [
  ['wkhtmltopdf x.html ../../x.pdf', 'deny'],
  ['wkhtmltopdf x.html x.pdf', 'allow'],
];
