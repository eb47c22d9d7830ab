import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['openssl'],
  build: () => singleDashOutputs({ '-out': 'write', '-keyout': 'write', '-sigout': 'write', '-certout': 'write', '-CAserial': 'write', '-signature': 'write' }),
});

export const examples: readonly Example[] = [
  ['openssl genrsa -out ../../k.pem', 'deny'],
  ['openssl genrsa -out k.pem', 'allow'],
];
