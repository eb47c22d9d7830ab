/**
 * Renders a sandbox plan for an OS sandbox: bubblewrap arguments (Linux) or a Seatbelt profile
 * for `sandbox-exec` (macOS).
 *
 * bubblewrap: the whole file system read-only (`--ro-bind / /`), a private /dev and /proc, then
 * each grant in plan order, parents first: a later bind replaces what an earlier one showed for its
 * subtree (bind the main checkout read-only, then the worktree inside it read-write, then the
 * control files inside the worktree read-only). `--cap-drop ALL`: run as root, bwrap otherwise
 * keeps every capability and the command could simply `mount -o remount,rw` a read-only bind.
 * `--unshare-user --unshare-pid` keep the mounts locked and host processes' /proc/<pid>/root out of
 * reach; `--new-session` blocks TIOCSTI keystroke injection into the calling terminal.
 *
 * Seatbelt: writes are denied everywhere, then each grant allows or denies `file-write*` for its
 * subtree in the same order; Seatbelt applies the last matching rule, so the most specific grant
 * wins as with bwrap. (Generated text only: not exercised on this Linux machine.)
 */
import type { SandboxPlan } from './grants.js';

export interface BwrapOptions {
  /** Directory the command starts in (inside the sandbox). */
  cwd: string;
  /** Whether bwrap runs as root (then capabilities are dropped explicitly). */
  root: boolean;
}

/** The namespaces and base mounts of every run (the availability probe sets up the same). */
export function bwrapBase(root: boolean): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (root) args.push('--cap-drop', 'ALL');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  return args;
}

export function bwrapArgs(plan: SandboxPlan, command: readonly string[], opts: BwrapOptions): string[] {
  const args = bwrapBase(opts.root);
  // (`/` read-only is the base above)
  for (const g of plan.grants) if (g.path !== '/') args.push(g.access === 'rw' ? '--bind' : '--ro-bind', g.path, g.path);
  args.push('--chdir', opts.cwd, '--', ...command);
  return args;
}

function sbString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(plan: SandboxPlan): string {
  const lines = [
    ';; bashguard sandbox profile for the worktree ' + plan.worktree,
    ';; use: sandbox-exec -f <this file> CMD...   (last matching rule wins)',
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys"))',
  ];
  for (const g of plan.grants) if (g.path !== '/') lines.push(`(${g.access === 'rw' ? 'allow' : 'deny'} file-write* (subpath ${sbString(g.path)}))`);
  return lines.join('\n') + '\n';
}
