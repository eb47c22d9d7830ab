/**
 * systemd-run: the command runs as a transient unit started by systemd (the system manager, or the
 * user's with --user), not as a child of this shell (systemd-run(1)); in `/` (system) or the
 * user's home (user) unless --working-directory, -p WorkingDirectory= or --same-dir says.
 * `--scope` is the exception: systemd-run runs the command itself, in this cwd, as a wrapper would.
 */
import { parseArgs, hasOption, optionValues } from '../args.js';
import { handOver, shellWords } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const LONG_VALUES = ['unit', 'property', 'description', 'slice', 'setenv', 'machine', 'host', 'uid', 'gid', 'nice', 'working-directory', 'on-active', 'on-boot', 'on-startup', 'on-unit-active', 'on-unit-inactive', 'on-calendar', 'on-clock-change', 'on-timezone-change', 'timer-property', 'path-property', 'socket-property', 'service-type', 'expand-environment', 'json', 'background'];

const systemdRun: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'upEMH', long: LONG_VALUES, stopAtOperand: true });
    if (hasOption(p, '--scope')) {
      if (p.operands.length > 0) interp.runWrapped(p.operands, inv.env, inv.st, inv.range, 'systemd-run --scope', inv.stdin);
      return;
    }
    const user = hasOption(p, '--user');
    const daemon = user ? "the user's systemd manager" : 'systemd';
    const what = user ? 'systemd-run --user' : 'systemd-run';
    const wd = [...optionValues(p, '--working-directory').map((f) => f.value), ...optionValues(p, '-p', '--property').map((f) => /^WorkingDirectory=(.*)$/.exec(f.value)?.[1]).filter((v): v is string => v !== undefined)].pop();
    const cwd = hasOption(p, '-d', '--same-dir') ? 'here' : wd !== undefined ? (wd.startsWith('/') ? wd : null) : user ? null : '/';
    if (hasOption(p, '-S', '--shell')) {
      handOver(inv, interp, { daemon, what, code: null, cwd });
      return;
    }
    if (p.operands.length > 0) handOver(inv, interp, { daemon, what, code: shellWords(p.operands), cwd });
  },
};

export default command({
  names: ['systemd-run'],
  build: () => systemdRun,
});

export const examples: readonly Example[] = [
  ['systemd-run --user touch ../../x', 'ask'],
  ['systemd-run --user touch /home/dev/repo/x', 'deny'],
  ['systemd-run --user -d touch ../../x', 'deny'],
  ['systemd-run --user --scope touch x', 'allow'],
  ['systemd-run --user true', 'ask'],
];
