import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['kill', 'type', 'help', 'jobs', 'bg', 'fg', 'ulimit', 'umask', 'times', 'caller', 'compgen', 'complete', 'compopt', 'dirs', 'bind', 'declare', 'typeset', 'fc'],
  build: () => printingBuiltin,
});

export const examples: readonly Example[] = [
  ['type ls', 'allow'],
  ['ulimit -n ../../README.md', 'allow'],
  ['umask 022', 'allow'],
  ['kill %1', 'allow'],
];
