/**
 * docs/usage.md's flags table is the CLI's own definitions (src/frontends/cli/flags-table.ts):
 * stale when a flag is added, renamed or removed without `npm run build`, and every flag the
 * README and docs/usage.md name in a `bashguard ...` command exists.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagsTable, TABLE_END } from '../../../src/frontends/cli/flags-table.js';
import { defineProgram } from '../../../src/frontends/cli/program.js';
import type { Command } from 'commander';
import { REPO_ROOT } from '../../helpers/shared.js';

const usage = readFileSync(join(REPO_ROOT, 'docs', 'usage.md'), 'utf8');

describe('docs/usage.md flags table', () => {
  it('is what the definitions give (run `npm run build` when this fails)', async () => {
    const start = usage.indexOf('<!-- flags-table:start');
    const end = usage.indexOf(TABLE_END);
    expect(start).toBeGreaterThan(0);
    expect(usage.slice(start, end + TABLE_END.length)).toBe(await flagsTable());
  });
});

describe('flags the pages name', () => {
  it('exist on the command they are given to', async () => {
    const { program } = await defineProgram({ stdout: () => undefined, stderr: () => undefined, readStdin: async () => '', env: {}, cwd: '.', isTTY: false });
    const find = (words: string[]): { cmd: Command; rest: string[] } => {
      let cmd: Command = program;
      let i = 0;
      for (; i < words.length; i++) {
        const sub = cmd.commands.find((c) => c.name() === words[i]);
        if (!sub) break;
        cmd = sub;
      }
      return { cmd, rest: words.slice(i) };
    };
    const problems: string[] = [];
    let checked = 0;
    for (const page of ['README.md', join('docs', 'usage.md')]) {
      const text = readFileSync(join(REPO_ROOT, page), 'utf8');
      // Each `bashguard SUB ... --flag` in code (a fenced line or an inline span), up to a shell operator or comment.
      for (const m of text.matchAll(/(?:^|[`\s(])bashguard((?: +[^\s`|;&#)]+)+)/gm)) {
        const words = m[1]!.trim().split(/ +/).map((w) => w.replace(/^\[|\]$/g, ''));
        const { cmd, rest } = find(words);
        if (cmd === program) continue;
        for (const w of rest) {
          if (w === '--') break; // what follows is the sandboxed command's
          for (const flag of w.split('|')) {
            const name = flag.replace(/=.*$/, '');
            if (!/^--?[a-zA-Z][\w-]*$/.test(name) || name === '--') continue;
            checked++;
            const known = [...cmd.options, ...program.options].some((o) => o.long === name || o.short === name) || name === '--help' || name === '-h';
            if (!known) problems.push(`${page}: bashguard ${words.join(' ')}: ${cmd.name()} has no ${name}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
