/**
 * Closed world for commands (issue #13 family 1): the specs cover every bash builtin and keyword; plain-data builtins write nothing while
 * an unknown command given the same arguments is not proof of safety; the wrappers the execution
 * oracle peels are wrappers in the table, with the same options taking a value.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cannotRun } from '../../helpers/shared.js';
import { knownCommands, lookupCommand, duplicateNames, shellBuiltin } from '../../../src/engine/commands/registry.js';
import { WRAPPER_ARGS } from '../../tooling/oracle/skip.js';
import { getParser, runScenario } from '../../helpers/scenario.js';

const parser = await getParser();

function bashNames(): string[] | null {
  try {
    return execFileSync('bash', ['-c', 'compgen -b -k'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return null;
  }
}

const decide = (cmd: string) => runScenario(parser, cmd).verdict;

describe('the command table', () => {
  it('has no name that two specs claim (lookup order must not decide an entry)', () => {
    expect(duplicateNames()).toEqual([]);
    expect(lookupCommand('tree')?.category).toBe('writes');
    expect(lookupCommand('cat')?.category).toBe('read');
  });
});

describe('closed world: bash builtins and keywords', () => {
  const names = bashNames();

  it('every name of `compgen -b -k` has a spec', (ctx) => {
    if (!names) return ctx.skip(cannotRun('bash is not installed'));
    const known = new Set(knownCommands());
    expect(names.filter((n) => !known.has(n))).toEqual([]);
  });

  it('every name with a spec and no table entry is handled by its shell-level part (never the unknown-command default)', () => {
    expect(knownCommands().filter((n) => lookupCommand(n) === undefined && shellBuiltin(n) === undefined)).toEqual([]);
  });

  it('plain-data builtins write nothing, where an unknown command with the same arguments may', () => {
    for (const b of ['ulimit', 'umask', 'times', 'type', 'jobs', 'wait', 'getopts', 'dirs', 'compgen', 'true', ':']) {
      expect(decide(`${b} ../../README.md`).findings, b).toEqual([]);
    }
    const unknown = decide('no-such-tool ../../README.md');
    expect(unknown.decision).toBe('ask');
    expect(unknown.findings.map((f) => [f.rule, f.confidence])).toEqual([['BG1002', 'possible']]);
  });
});

describe('closed world: unknown commands', () => {
  it('report a path only inside a protected region', () => {
    expect(decide('no-such-tool build/out /tmp/x /home/dev/other/y').findings).toEqual([]);
    expect(decide('no-such-tool --out=../b2/x').findings.map((f) => f.rule)).toEqual(['BG1003']);
    expect(decide('no-such-tool ../../.git/hooks/pre-commit').findings.map((f) => f.rule)).toEqual(['BG3002']);
  });

  it('run from a directory the command moved to count that directory', () => {
    expect(decide('cd ../.. && no-such-tool').findings.map((f) => f.rule)).toEqual(['BG1002']);
    expect(decide('cd src && no-such-tool').findings).toEqual([]);
  });

  it('a script file run by an interpreter is not analyzed, so it is an unknown program', () => {
    expect(decide('python3 tool.py ../../out').decision).toBe('ask');
    expect(decide('node tool.js out').decision).toBe('allow');
  });
});

describe('closed world: wrappers the oracle peels are wrappers in the table', () => {
  const names = Object.keys(WRAPPER_ARGS).sort();

  it('each one is a table wrapper', () => {
    expect(names.filter((n) => lookupCommand(n)?.category !== 'wrapper')).toEqual([]);
  });

  // The oracle skips an option's value before the wrapped command: the table must too, or it
  // would take the value for the command and miss the write.
  const before = (w: string): string => (w === 'timeout' ? ' 5' : w === 'flock' ? ' /tmp/lock' : '');
  for (const w of names) {
    it(`${w}: the options that take a value agree`, () => {
      const cases = [`${w}${before(w)} touch /home/dev/repo/x`, ...[...WRAPPER_ARGS[w]!].map((o) => `${w} ${o} V${before(w)} touch /home/dev/repo/x`)];
      for (const cmd of cases) {
        const v = decide(cmd);
        expect(v.findings.some((f) => f.rule === 'BG1002' && f.path === '/home/dev/repo/x' && f.message.startsWith('`touch`') && f.confidence !== 'possible'), cmd).toBe(true);
      }
    });
  }
});
