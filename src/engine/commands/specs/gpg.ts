import { type Example, command } from '../spec.js';
import { writes, withEnvWrites } from '../kinds.js';

export default command({
  names: ['gpg'],
  build: () => withEnvWrites('gpg', writes({ grammar: { short: 'orRuf', long: ['output', 'recipient', 'local-user', 'homedir', 'default-key', 'keyserver', 'passphrase', 'passphrase-file', 'trust-model', 'cipher-algo', 'digest-algo', 'compress-algo', 's2k-cipher-algo', 'pinentry-mode'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write', '--homedir': 'extract' } })),
});

export const examples: readonly Example[] = [
  ['gpg -o ../../x.gpg -c x', 'deny'],
  ['gpg -o x.gpg -c x', 'allow'],
];
