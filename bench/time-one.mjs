// Times one process from a small parent: `node bench/time-one.mjs` with {argv, env, cwd, input} as
// JSON on stdin prints {ms, status, stdout, stderr}. The bench's own process has a large heap by
// its lint section (the analysis section ran 53,000 commands in it), and spawning from it cost
// every subject ~60 ms more (`node -e 0` measured 97 ms there against 38 ms in the hook section),
// the same for both tools, which hid part of the difference between them.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const { argv, env, cwd, input } = JSON.parse(readFileSync(0, 'utf8'));
const t = process.hrtime.bigint();
const r = spawnSync(argv[0], argv.slice(1), { input: input ?? '', env, cwd, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
const ms = Number(process.hrtime.bigint() - t) / 1e6;
if (r.error) {
  process.stderr.write(`time-one: ${r.error.message}\n`);
  process.exitCode = 2;
} else process.stdout.write(JSON.stringify({ ms, status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() }));
