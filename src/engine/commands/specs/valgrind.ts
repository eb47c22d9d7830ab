import { type Example, command } from '../spec.js';
import { wrapper } from '../kinds.js';

export default command({
  names: ['valgrind'],
  build: () => wrapper({ grammar: { long: ['log-file', 'xml-file', 'vgdb-prefix'] }, writes: ['--log-file', '--xml-file'] }),
});

export const examples: readonly Example[] = [
  ['valgrind touch ../../x', 'deny'],
  ['valgrind touch x', 'allow'],
  ['valgrind --log-file=../../x true', 'deny'],
  ['valgrind --log-file=v.log true', 'allow'],
];
