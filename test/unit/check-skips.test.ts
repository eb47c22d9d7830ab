/**
 * scripts/check-skips.mjs: it reads the one list of platform reasons from test/helpers/shared.ts,
 * lets a skipped test through only when its title names one, and counts nothing else as a skip.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without declarations
import { platformReasons, unexplainedSkips } from '../../scripts/check-skips.mjs';
import { PLATFORM_REASONS } from '../helpers/shared.js';

const reasons = (): string[] => platformReasons();
const check = (report: unknown): string[] => unexplainedSkips(report, reasons());
const test = (fullName: string, status: string) => ({ fullName, status });

describe('check-skips', () => {
  it('reads the platform reasons of test/helpers/shared.ts, every one of them', () => {
    expect(reasons()).toEqual(Object.values(PLATFORM_REASONS));
  });

  it('refuses a skipped, pending or todo test whose title names no platform reason, and nothing else', () => {
    const report = {
      testResults: [
        {
          name: 'test/x.test.ts',
          assertionResults: [
            test('runs', 'passed'),
            test('broke', 'failed'),
            test(`a suite (${PLATFORM_REASONS.asNonRoot}) its test`, 'skipped'),
            test('the addon is not built', 'skipped'),
            test('later', 'todo'),
            test('not reached', 'pending'),
          ],
        },
      ],
    };
    expect(check(report).map((s) => s.replace(/^.*> /, ''))).toEqual(['the addon is not built', 'later', 'not reached']);
  });

  it('a report with no skips passes', () => {
    expect(check({ testResults: [{ name: 'a', assertionResults: [test('ok', 'passed')] }] })).toEqual([]);
  });
});
