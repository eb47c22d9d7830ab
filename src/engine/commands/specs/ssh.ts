import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { optionValues, parseArgs } from '../args.js';
import { handOver } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/**
 * ssh: the remote command runs under the ssh server of the host (daemon.ts), this machine's when
 * the host is localhost; locally ssh writes only its log (-E) and control socket (-S, -o
 * ControlPath=) (ssh(1)). `-o ProxyCommand=`/`LocalCommand=` run here.
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
    // The remote command (the words after the host, joined by spaces) runs under the ssh server,
    // in the remote user's home: on this machine when the host is this one.
    const [host, ...words] = p.operands;
    if (host && words.length > 0) {
      const name = host.value.replace(/^[^@]*@/, '');
      const local = /^(?:localhost|127(?:\.\d+){3}|::1|0\.0\.0\.0)$/i.test(name);
      handOver(inv, interp, { daemon: `the ssh server of ${displayPath(host.value)}`, what: 'ssh', code: words.map((w) => w.value).join(' '), cwd: null, remote: !local });
    }
  },
};

export default command({
  names: ['ssh'],
  build: () => ssh,
});

export const examples: readonly Example[] = [
  ["ssh host 'rm -rf /home/dev/repo'", 'ask'],
  ["ssh localhost 'rm -rf /home/dev/repo'", 'deny'],
  ['ssh host', 'allow'],
  ['ssh -E ../../ssh.log host true', 'deny'],
  ["ssh -o ProxyCommand='touch /home/dev/repo/p' host", 'deny'],
];
