import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['kill', 'test', '[', 'type', 'help', 'jobs', 'bg', 'fg', 'ulimit', 'umask', 'times', 'getopts', 'caller', 'compgen', 'complete', 'compopt', 'dirs', 'bind', 'set', 'declare', 'typeset', 'fc'],
  build: () => printingBuiltin,
});

export const examples: readonly Example[] = [
  ['test -f ../../README.md', 'allow'],
  ['[ -d ../b2 ] && echo yes', 'allow'],
  ['type ls', 'allow'],
  ['ulimit -n ../../README.md', 'allow'],
  ['umask 022', 'allow'],
  ['kill %1', 'allow'],
];
