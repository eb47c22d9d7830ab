import { type Example, command } from '../spec.js';
import { writes, commandOptions } from '../kinds.js';

export default command({
  names: ['rsync'],
  build: () => commandOptions(writes({ grammar: { short: 'eBfT', long: ['rsh', 'rsync-path', 'exclude', 'include', 'exclude-from', 'include-from', 'filter', 'files-from', 'temp-dir', 'partial-dir', 'log-file', 'password-file', 'backup-dir', 'chmod', 'chown', 'compare-dest', 'copy-dest', 'link-dest', 'timeout', 'bwlimit', 'suffix', 'max-size', 'min-size', 'out-format', 'port'] }, operands: 'dest-last', op: 'write', subtreeFlags: ['-r', '-a', '--recursive', '--archive'], optionWrites: { '--log-file': 'append', '--backup-dir': 'extract' } }), ['-e', '--rsh']),
});

export const examples: readonly Example[] = [
  ['rsync -a src/ ../../src/', 'deny'],
  ['rsync -a ../../src/ build/src/', 'allow'],
];
