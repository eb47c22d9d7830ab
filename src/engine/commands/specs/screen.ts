/**
 * screen: `-X CMD` sends CMD to a screen session that is already running (screen(1)): `stuff TEXT`
 * types TEXT into its window, `exec`/`screen` start programs there, others act in the server's
 * cwd; all of it runs outside this shell (daemon.ts). `screen [-dm] [-S name] CMD ...` starts a
 * new session whose server is this process's child, in this cwd: CMD is run as by a wrapper.
 */
import { parseArgs, optionValues } from '../args.js';
import { handOver, shellWords } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const screen: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    // -r/-x attach, -ls/-list/-wipe list: nothing is run.
    if (inv.args.some((a) => ['-r', '-R', '-x', '-ls', '-list', '-wipe', '-v', '-Q'].includes(a.value))) return;
    const p = parseArgs(inv.args, { short: 'cehpsStTX', long: ['Logfile'], stopAtOperand: true });
    for (const f of optionValues(p, '--Logfile')) interp.write('write', f, inv.st, inv.range, 'screen -Logfile');
    const x = optionValues(p, '-X')[0];
    if (x) {
      const what = `screen -X ${x.value}`;
      const daemon = 'the screen session';
      if (x.value === 'stuff') {
        const text = p.operands.map((o) => o.value).join(' ').replace(/\\n|\\r|\^M|\^J/g, '\n');
        handOver(inv, interp, { daemon, what, code: text, cwd: null });
      } else if (x.value === 'exec' || x.value === 'screen') {
        const argv = p.operands.filter((o, i) => !(i === 0 && o.value.startsWith('-')));
        handOver(inv, interp, { daemon, what, code: argv.length > 0 ? shellWords(argv) : null, cwd: null });
      } else handOver(inv, interp, { daemon, what, code: null, cwd: null });
      return;
    }
    if (p.operands.length > 0) interp.runWrapped(p.operands, inv.env, inv.st, inv.range, 'screen', { kind: 'unknown' });
  },
};

export default command({
  names: ['screen'],
  build: () => screen,
});

export const examples: readonly Example[] = [
  ['screen -dm touch ../../x', 'deny'],
  ['screen -dmS build make', 'allow'],
  ["screen -S dev -X stuff 'touch ../../x\\n'", 'ask'],
  ["screen -S dev -X stuff 'touch /home/dev/repo/x\\n'", 'deny'],
  ['screen -ls', 'allow'],
];
