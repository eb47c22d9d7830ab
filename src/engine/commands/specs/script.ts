import { type CommandSpec, type Example, command } from '../spec.js';
import { commandString } from '../kinds.js';
import { optionValues, parseArgs } from '../args.js';

const grammar = { short: 'cEIOBT', long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing'] };
const runCommand = commandString(grammar, '-c', false);

export default command({
  names: ['script'],
  build: (): CommandSpec => ({
    category: 'wrapper',
    run(inv, interp) {
      runCommand.run(inv, interp);
      // script(1): the session is logged to FILE (the operand; `typescript` where neither it nor a
      // --log-* option names one), the input, the output and the timing to their options' files.
      const p = parseArgs(inv.args, grammar);
      const logs = optionValues(p, '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing');
      const file = p.operands[0] ?? (logs.length === 0 ? { value: 'typescript', confidence: 'certain' as const, evidence: [{ range: inv.range, note: 'script logs to ./typescript by default' }], glob: false } : null);
      for (const f of file ? [file, ...logs] : logs) interp.write('write', f, inv.st, inv.range, 'script');
    },
  }),
});

export const examples: readonly Example[] = [
  ['script -c \'touch ../../x\' /dev/null', 'deny'],
  ['script -qc \'ls\' /dev/null', 'allow'],
  ['script -q ../../x -c true', 'deny'],
  ['cd ../.. && script -qc true', 'deny'],
  ['script -q log.txt -c true', 'allow'],
];
