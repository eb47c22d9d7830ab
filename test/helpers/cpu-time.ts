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
