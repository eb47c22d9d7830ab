/**
 * at / batch: the job (standard input, or -f FILE) is run later by atd, not by this shell; at(1):
 * "The working directory, the environment ... and the umask are retained from the time of
 * invocation", so the job's paths resolve from here, but it runs outside any sandbox (daemon.ts).
 */
import { parseArgs, hasOption, optionValues } from '../args.js';
import { handOver } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const at: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'fqt' });
    // -l lists, -r/-d remove, -c prints jobs: atq, atrm, no job is handed over.
    if (hasOption(p, '-l', '-r', '-d', '-c')) return;
    const file = optionValues(p, '-f')[0];
    const code = file ? null : inv.stdin.kind === 'text' && inv.stdin.known ? inv.stdin.text : null;
    handOver(inv, interp, { daemon: 'atd', what: inv.name, code, cwd: 'here' });
  },
};

export default command({
  names: ['at', 'batch'],
  build: () => at,
});

export const examples: readonly Example[] = [
  ["echo 'touch ../../x' | at now", 'deny'],
  ["echo 'touch x' | at now + 1 minute", 'ask'],
  ["batch <<< 'make'", 'ask'],
  ['at -f job.sh now', 'ask'],
  ['at -l', 'allow'],
];
