import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { workerV8Flags } from '../src/lint/isolated.js';

describe('lint child V8 flags (src/lint/isolated.ts)', () => {
  it('this Node accepts the flags the lint child gets (an unknown V8 flag would stop every child)', () => {
    const r = spawnSync(process.execPath, [...workerV8Flags(), '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('ok');
  });

  it('only the V8 lines it was measured on get a flag', () => {
    expect(workerV8Flags('11.3.244.8-node.38')).toEqual(['--interrupt-budget=1048576']);
    expect(workerV8Flags('12.4.254.21-node.57')).toEqual(['--invocation-count-for-turbofan=48000']);
    expect(workerV8Flags('13.6.233.17-node.53')).toEqual(['--invocation-count-for-turbofan=48000']);
    expect(workerV8Flags('14.0.1')).toEqual([]);
    expect(workerV8Flags('garbage')).toEqual([]);
  });
});
