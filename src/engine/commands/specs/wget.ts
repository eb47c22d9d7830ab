import { HOLE } from '../../effects/types.js';
import { joinPath } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const wget: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'OoaPeiBtTwQUlARDIX', long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'execute', 'input-file', 'base', 'tries', 'timeout', 'wait', 'quota', 'user-agent', 'level', 'accept', 'reject', 'domains', 'include-directories', 'exclude-directories', 'header', 'post-data', 'user', 'password'] });
    if (hasOption(p, '--spider')) return;
    const docs = optionValues(p, '-O', '--output-document');
    for (const d of docs) if (d.value !== '-') interp.write('write', d, inv.st, inv.range, 'wget -O');
    for (const l of optionValues(p, '-o', '--output-file', '-a', '--append-output')) interp.write('write', l, inv.st, inv.range, 'wget -o');
    if (docs.length === 0) {
      const prefix = optionValues(p, '-P', '--directory-prefix')[0];
      const target = prefix ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
      if (hasOption(p, '-r', '--recursive', '-m', '--mirror', '-x', '--force-directories', '-i', '--input-file')) {
        interp.write('extract', target, inv.st, inv.range, 'wget', { subtree: true });
      } else {
        // One file per URL, named after the URL's last component (index.html when it has none).
        for (const u of p.operands.slice(0, 16)) {
          const name = u.value.includes(HOLE) ? HOLE : u.value.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '').split('/').pop() || 'index.html';
          interp.write('write', { ...u, value: joinPath(target.value, name) }, inv.st, inv.range, 'wget');
        }
      }
    }
  },
};

export default command({
  names: ['wget'],
  build: () => wget,
});

export const examples: readonly Example[] = [
  ['wget https://example.com/a.tgz', 'allow'],
  ['wget -O ../../a.tgz https://example.com/a.tgz', 'deny'],
  ['wget -r https://example.com/', 'ask'],
];
