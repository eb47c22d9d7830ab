import { type Example, type CommandSpec, command } from '../spec.js';
import { applyWrites, commandOptions, type WritesSpec } from '../kinds.js';
import { hasOption, optionValues, parseArgs } from '../args.js';

const SPEC: WritesSpec = {
  grammar: { short: 'eBfT', long: ['rsh', 'rsync-path', 'exclude', 'include', 'exclude-from', 'include-from', 'filter', 'files-from', 'temp-dir', 'partial-dir', 'log-file', 'password-file', 'backup-dir', 'chmod', 'chown', 'compare-dest', 'copy-dest', 'link-dest', 'timeout', 'bwlimit', 'suffix', 'max-size', 'min-size', 'out-format', 'port', 'write-batch', 'only-write-batch', 'read-batch'] },
  operands: 'dest-last',
  op: 'write',
  subtreeFlags: ['-r', '-a', '--recursive', '--archive'],
  optionWrites: { '--log-file': 'append', '--backup-dir': 'extract', '--write-batch': 'write', '--only-write-batch': 'write' },
};

const rsync: CommandSpec = {
  category: 'writes',
  silent: true,
  run(inv, interp) {
    const p = parseArgs(inv.args, SPEC.grammar);
    // rsync(1): -n/--dry-run "perform a trial run with no changes made"; --list-only lists the
    // source. The log file is still written.
    if (hasOption(p, '-n', '--dry-run', '--list-only')) {
      for (const f of optionValues(p, '--log-file')) interp.write('append', f, inv.st, inv.range, 'rsync --log-file');
      return;
    }
    applyWrites(SPEC, p, inv, interp);
  },
};

export default command({
  names: ['rsync'],
  build: () => commandOptions(rsync, ['-e', '--rsh']),
});

export const examples: readonly Example[] = [
  ['rsync -a src/ ../../src/', 'deny'],
  ['rsync -a ../../src/ build/src/', 'allow'],
  ['rsync -avn src/ ../../src/', 'allow'],
  ['rsync --dry-run -a --log-file=../../log src/ build/', 'deny'],
];
