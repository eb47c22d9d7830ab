import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['rustfmt'],
  build: () => formatter(['--check'], null),
});

export const examples: readonly Example[] = [
  ['rustfmt ../../x.rs', 'deny'],
  ['rustfmt --check ../../x.rs', 'allow'],
];
