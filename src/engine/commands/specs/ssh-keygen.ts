import { HOLE } from '../../effects/types.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { envOf } from '../env.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** ssh-keygen: `-f FILE` names the key written (and FILE.pub) or the file changed (-p, -c, -R). */
const sshKeygen: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'abCDEFfGIJjKMmNnOPRrSstVwYZz' });
    const file = optionValues(p, '-f')[0];
    if (hasOption(p, '-l', '-B', '-y', '-F', '-e', '-i', '-r', '-k', '-Q', '-D', '-H', '-T', '-?', '-h')) return;
    if (hasOption(p, '-A')) return; // host keys under /etc/ssh: outside any checkout, reported by path below if -f
    if (hasOption(p, '-p', '-c', '-R', '-u')) {
      if (file) interp.write('modify', file, inv.st, inv.range, 'ssh-keygen -f');
      return;
    }
    if (hasOption(p, '-s')) {
      for (const k of p.operands) interp.write('write', { ...k, value: k.value.replace(/\.pub$/, '') + '-cert.pub' }, inv.st, inv.range, 'ssh-keygen -s');
      return;
    }
    if (hasOption(p, '-Y')) {
      if (optionValues(p, '-Y')[0]?.value === 'sign') for (const k of p.operands) interp.write('write', { ...k, value: `${k.value}.sig` }, inv.st, inv.range, 'ssh-keygen -Y sign');
      return;
    }
    if (file) {
      interp.write('write', file, inv.st, inv.range, 'ssh-keygen -f');
      interp.write('write', { ...file, value: `${file.value}.pub` }, inv.st, inv.range, 'ssh-keygen -f');
      return;
    }
    const home = envOf(inv, 'HOME');
    const type = optionValues(p, '-t')[0]?.value ?? 'ed25519';
    interp.write('write', { value: `${home?.value ?? HOLE}/.ssh/id_${type.replace(/-.*/, '')}`, confidence: 'possible', evidence: [{ range: inv.range, note: 'ssh-keygen without -f asks where to save the key (default ~/.ssh)' }], glob: false }, inv.st, inv.range, 'ssh-keygen');
  },
};

export default command({
  names: ['ssh-keygen'],
  build: () => sshKeygen,
});

export const examples: readonly Example[] = [
  ['ssh-keygen -f ../../k -N ""', 'deny'],
  ['ssh-keygen -l -f ../../k', 'allow'],
];
