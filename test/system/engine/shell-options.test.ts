/**
 * Shell state that changes resolution (issue #39 item 3): every `set -o` / `shopt` option of the
 * installed bash is in the table, each entry says how it is handled, and each entry's examples
 * (beside it in src/engine/shell/shell-options.ts) decide as labelled: modelled state gives the
 * path bash would use, unknown state asks.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { SET_OPTIONS, SHELL_VARIABLES, SHOPT_OPTIONS, SPECIAL_PARAMETERS, type ShellStateEntry } from '../../../src/engine/shell/shell-options.js';
import { getParser, runScenario } from '../../helpers/scenario.js';

const parser = await getParser();

function bashList(cmd: string): string[] | null {
  try {
    return execFileSync('bash', ['-c', cmd], { encoding: 'utf8' }).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]!);
  } catch {
    return null;
  }
}

const tables: Array<[string, Record<string, ShellStateEntry>]> = [
  ['set -o', SET_OPTIONS],
  ['shopt', SHOPT_OPTIONS],
  ['variable', SHELL_VARIABLES],
  ['special parameter', SPECIAL_PARAMETERS],
];

describe('shell state that changes resolution', () => {
  it('lists every `set -o` option of the installed bash', (ctx) => {
    const names = bashList('set -o');
    if (!names) return ctx.skip(cannotRun('bash is not installed'));
    expect(names.filter((n) => !(n in SET_OPTIONS))).toEqual([]);
  });

  it('lists every `shopt` option of the installed bash', (ctx) => {
    const names = bashList('shopt');
    if (!names) return ctx.skip(cannotRun('bash is not installed'));
    expect(names.filter((n) => !(n in SHOPT_OPTIONS))).toEqual([]);
  });

  for (const [kind, table] of tables) {
    for (const [name, entry] of Object.entries(table)) {
      if (entry.kind === 'none') continue;
      it(`${kind} ${name} (${entry.kind}) has an example`, () => {
        expect(entry.examples?.length ?? 0).toBeGreaterThan(0);
        // An unknown state must make some command using it ask (or worse), never allow.
        if (entry.kind === 'unknown') expect(entry.examples!.some(([, d]) => d !== 'allow')).toBe(true);
      });
      for (const [cmd, want] of entry.examples ?? []) {
        it(`${kind} ${name}: ${cmd.replace(/\n/g, '; ')} -> ${want}`, () => {
          const v = runScenario(parser, cmd).verdict;
          expect({ decision: v.decision, findings: v.findings.map((f) => `${f.rule} ${f.message}`) }).toMatchObject({ decision: want });
        });
      }
    }
  }
});
