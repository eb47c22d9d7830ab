/**
 * The fenced blocks of README.md and docs/usage.md marked runnable (a `<!-- ci: run -->` line
 * right before the fence) run as a reader would paste them: each in a scratch directory with a
 * scratch HOME, `bashguard` on PATH (this checkout's bin/bashguard.js, so dist/ as built), and
 * `bashguard` importable from JavaScript (node_modules/bashguard -> this checkout). `sh` blocks run
 * under `bash -euo pipefail`, `js` blocks as an ES module with node. Each must exit 0.
 * (The install block, `<!-- ci: install-commands -->`, is scripts/readme-install-check.sh's.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/shared.js';

const MARK = '<!-- ci: run -->';

/** The marked blocks of a page: [where, language, text]. */
function runnableBlocks(page: string, text: string): [string, string, string][] {
  const lines = text.split('\n');
  const out: [string, string, string][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== MARK) continue;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() === '') j++;
    const fence = /^```(\w+)$/.exec(lines[j] ?? '');
    if (!fence) throw new Error(`${page}:${i + 1}: ${MARK} is not followed by a fenced block`);
    const end = lines.indexOf('```', j + 1);
    if (end < 0) throw new Error(`${page}:${j + 1}: unclosed fence`);
    out.push([`${page}:${j + 1}`, fence[1]!, lines.slice(j + 1, end).join('\n') + '\n']);
  }
  return out;
}

const T = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-doc-blocks-')));
afterAll(() => rmSync(T, { recursive: true, force: true }));

const blocks = ['README.md', join('docs', 'usage.md')].flatMap((page) => runnableBlocks(page, readFileSync(join(REPO_ROOT, page), 'utf8')));

describe('runnable blocks of README.md and docs/usage.md', () => {
  it('there are some, in both pages (a lost marker is a block no longer checked)', () => {
    expect(blocks.filter(([w]) => w.startsWith('README.md')).length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter(([w]) => w.startsWith('docs')).length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks)('%s (%s) runs as pasted', (where, lang, text) => {
    expect(['sh', 'js']).toContain(lang);
    const dir = mkdtempSync(join(T, 'block-'));
    const home = join(dir, 'home');
    const bin = join(dir, 'bin');
    const work = join(dir, 'work');
    for (const d of [home, bin, join(work, 'node_modules')]) mkdirSync(d, { recursive: true });
    writeFileSync(join(bin, 'bashguard'), `#!/bin/sh\nexec "${process.execPath}" "${join(REPO_ROOT, 'bin', 'bashguard.js')}" "$@"\n`);
    chmodSync(join(bin, 'bashguard'), 0o755);
    symlinkSync(REPO_ROOT, join(work, 'node_modules', 'bashguard'));
    const file = join(work, lang === 'js' ? 'block.mjs' : 'block.sh');
    writeFileSync(file, text);
    const env = {
      HOME: home,
      PATH: `${bin}:${join(process.execPath, '..')}:/usr/local/bin:/usr/bin:/bin`,
      TMPDIR: dir,
      LANG: 'C.UTF-8',
      // A reader's git knows who they are; a scratch HOME's does not.
      GIT_AUTHOR_NAME: 'reader', GIT_AUTHOR_EMAIL: 'reader@example.com', GIT_COMMITTER_NAME: 'reader', GIT_COMMITTER_EMAIL: 'reader@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    const r = lang === 'js' ? spawnSync(process.execPath, [file], { cwd: work, env, encoding: 'utf8' }) : spawnSync('bash', ['-euo', 'pipefail', file], { cwd: work, env, encoding: 'utf8' });
    expect(r.stderr.trim() === '' || !/Error|error:|command not found/.test(r.stderr), `${where} stderr:\n${r.stderr}`).toBe(true);
    expect(r.status, `${where}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(0);
    expect(r.stdout.trim()).not.toBe('');
    // A js block's `console.log(...); // what it prints` comments are what it prints (`<repo>`: the scratch repository).
    const promised = [...text.matchAll(/^console\.log\(.*\);\s*\/\/ (.*)$/gm)].map((m) => new RegExp(`^${m[1]!.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<repo>', '/\\S+')}$`));
    if (lang === 'js') expect(promised.length, where).toBeGreaterThan(0);
    const printed = r.stdout.trim().split('\n');
    promised.forEach((re, i) => expect(printed[i], where).toMatch(re));
    // An sh block's `# {"..." ...` comment: the JSON the command prints starts so.
    for (const m of text.matchAll(/#\s+(\{.*?)\s*\.\.\.$/gm)) expect(r.stdout, where).toContain(m[1]!);
  });
});
