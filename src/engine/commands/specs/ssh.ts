import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/**
 * ssh: the remote command runs on the other host; locally ssh writes only its log (-E) and
 * control socket (-S, -o ControlPath=) (ssh(1)). `-o ProxyCommand=`/`LocalCommand=` run here.
 */
const ssh: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'BbcDEeFIiJLlmOopQRSWw', stopAtOperand: true });
    // (A control socket of an unknown path is bound only where no file exists: skipped.)
    for (const f of optionValues(p, '-E', '-S')) if (f.value !== 'none' && !(f.value.includes(HOLE) && !optionValues(p, '-E').includes(f))) interp.write('write', f, inv.st, inv.range, 'ssh');
    for (const o of optionValues(p, '-o')) {
      const m = /^(ProxyCommand|LocalCommand|KnownHostsCommand)[= ]\s*(.+)$/i.exec(o.value);
      if (m && m[2] !== 'none') {
        if (m[2]!.includes(HOLE)) interp.dynamicProblem(`ssh -o ${m[1]} runs a command that cannot be known statically`, displayPath(o.value), inv.range);
        else interp.runNested(m[2]!, interp.child(inv.st), inv.range, `ssh -o ${m[1]}`);
      }
      const path = /^(?:ControlPath|UserKnownHostsFile)[= ]\s*(.+)$/i.exec(o.value);
      if (path && path[1] !== 'none' && !path[1]!.includes(HOLE)) interp.write('write', { ...o, value: path[1]! }, inv.st, inv.range, 'ssh -o');
    }
  },
};

export default command({
  names: ['ssh'],
  build: () => ssh,
});

export const examples: readonly Example[] = [
  ["ssh host 'rm -rf /home/dev/repo'", 'allow'],
  ['ssh -E ../../ssh.log host true', 'deny'],
  ["ssh -o ProxyCommand='touch /home/dev/repo/p' host", 'deny'],
];
