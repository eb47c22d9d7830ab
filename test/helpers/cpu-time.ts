import { readFileSync } from 'node:fs';
/**
 * CPU time spent by this process on a call, in milliseconds: what an analysis costs, which the
 * machine's load does not change (wall time does: a test's time bound is in CPU time, and speed
 * claims are ratios in bench/).
 */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Runs `f` and returns its value and the CPU time it took (ms). */
export function cpuTimed<T>(f: () => T): { value: T; ms: number } {
  const t0 = cpuMs();
  const value = f();
  return { value, ms: cpuMs() - t0 };
}

/**
 * CPU time of this process and of its children that have ended (ms), on Linux (/proc/self/stat's
 * utime, stime, cutime, cstime, in clock ticks of 1/100 s); elsewhere this process's alone.
 */
export function cpuMsWithChildren(): number {
  if (process.platform !== 'linux') return cpuMs();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name (which may hold spaces), from the third on.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  return ticks * 10;
}
