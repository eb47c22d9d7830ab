// Fallback peak-RSS probe when /usr/bin/time is missing: `node --require bench/vmhwm.cjs ...`
// writes the process's VmHWM (peak resident set, KiB) to $BENCH_VMHWM_OUT as it exits.
const { readFileSync, writeFileSync } = require('node:fs');
process.on('exit', () => {
  try {
    const m = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m && process.env.BENCH_VMHWM_OUT) writeFileSync(process.env.BENCH_VMHWM_OUT, m[1]);
  } catch {}
});
