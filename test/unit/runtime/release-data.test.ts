import { describe, expect, it } from 'vitest';
import { releaseData } from '../../../src/runtime/startup/cached-load.js';
import { PLATFORM_REASONS, platformSkip } from '../../helpers/shared.js';

const canTransfer = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';

describe("the code cache's data, given back once V8 has deserialized it", () => {
  it.skipIf(platformSkip(!canTransfer, PLATFORM_REASONS.node22On) !== null)(`a buffer that is its ArrayBuffer whole is detached, its memory freed (${PLATFORM_REASONS.node22On})`, () => {
    const data = Buffer.alloc(256 * 1024, 7);
    releaseData(data);
    expect(data.buffer.byteLength).toBe(0);
    expect(data.length).toBe(0);
  });

  it('a slice of a larger ArrayBuffer (a pool) is left alone', () => {
    const whole = Buffer.alloc(4096, 1);
    const part = whole.subarray(16, 48);
    releaseData(part);
    expect(whole.buffer.byteLength).toBe(4096);
    expect(part.length).toBe(32);
    expect(part[0]).toBe(1);
  });
});
