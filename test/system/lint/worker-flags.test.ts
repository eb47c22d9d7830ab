import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { saturates, workerV8Flags } from '../../../src/frontends/lint/isolated.js';

describe('lint child V8 flags (src/frontends/lint/isolated.ts)', () => {
  it('this Node accepts the flags the lint child gets (an unknown V8 flag would stop every child)', () => {
    for (const saturated of [false, true]) {
      const r = spawnSync(process.execPath, [...workerV8Flags(process.versions.v8, saturated), '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('ok');
    }
  });

  it('only the V8 lines it was measured on get a flag', () => {
    expect(workerV8Flags('11.3.244.8-node.38')).toEqual(['--interrupt-budget=1048576']);
    expect(workerV8Flags('12.4.254.21-node.57')).toEqual(['--invocation-count-for-turbofan=48000']);
    expect(workerV8Flags('13.6.233.17-node.53')).toEqual(['--invocation-count-for-turbofan=48000']);
    expect(workerV8Flags('14.0.1')).toEqual([]);
    // Maglev goes only on Node 24, and only when the children take every core.
    expect(workerV8Flags('13.6.233.17-node.53', true)).toEqual(['--invocation-count-for-turbofan=48000', '--no-maglev']);
    expect(workerV8Flags('12.4.254.21-node.57', true)).toEqual(['--invocation-count-for-turbofan=48000']);
    expect(workerV8Flags('11.3.244.8-node.38', true)).toEqual(['--interrupt-budget=1048576']);
    expect(workerV8Flags('garbage')).toEqual([]);
  });

  it('the children saturate the machine when there are at least as many as CPUs', () => {
    expect(saturates(2, 2)).toBe(true);
    expect(saturates(3, 2)).toBe(true);
    expect(saturates(1, 2)).toBe(false);
    expect(saturates(4, 16)).toBe(false);
  });

  it('a command line with `--timeout 0` and a path analyzes in the lint process (which then takes the flags) and starts no child', async () => {
    const { analyzesInProcess, prestartCount } = await import('../../../src/frontends/lint/spawn-worker.js');
    const two = () => 2;
    for (const argv of [['--timeout', '0', 'a.sh'], ['--timeout=0', 'a.sh', 'b.sh'], ['a.sh', '--timeout', '0'], ['--timeout', '5', '--timeout', '0', 'a.sh']]) {
      expect(analyzesInProcess(argv), argv.join(' ')).toBe(true);
      expect(prestartCount(argv, two), argv.join(' ')).toBe(0);
    }
    for (const argv of [['a.sh'], ['--timeout', '0'], ['--timeout', '0', '--help'], ['--timeout', '0', '--timeout', '5', 'a.sh'], ['--format', '0', 'a.sh'], ['--timeout', '2', 'a.sh']]) {
      expect(analyzesInProcess(argv), argv.join(' ')).toBe(false);
    }
    expect(prestartCount(['--timeout', '0', '--timeout', '5', 'a.sh', 'b.sh'], two)).toBe(2);
    expect(prestartCount(['--jobs', '1', 'a.sh', 'b.sh'], two)).toBe(1);
    expect(prestartCount(['--version', 'a.sh'], two)).toBe(0);
  });
});
