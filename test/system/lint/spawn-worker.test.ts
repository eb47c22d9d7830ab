/**
 * src/frontends/lint/spawn-worker.ts: a lint child started through bashguard's addon (posix_spawn, a reader
 * thread) behaves as one started through node:child_process: requests on its stdin, replies on
 * descriptor 3, stdout discarded, stderr the parent's, its exit code or signal reported once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSize, spawnWorker, totalBytes, type WorkerProcess } from '../../../src/frontends/lint/spawn-worker.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';

const ADDON = addonOrSkip('spawnWorker through the addon') === null;

/** Replies `echo:<line>` on descriptor 3 for each request line; `exit N` exits with N; `hang` never answers. */
const ECHO = `const fs = require('fs');
process.stdout.write('to stdout\\n');
process.stderr.write('child stderr ' + process.env.BG_TEST_MARK + '\\n');
let rest = '';
const buf = Buffer.alloc(65536);
for (;;) {
  let n;
  try { n = fs.readSync(0, buf, 0, buf.length, null); } catch (e) { if (e.code === 'EAGAIN') continue; throw e; }
  if (n === 0) process.exit(0);
  rest += buf.subarray(0, n).toString();
  let nl;
  while ((nl = rest.indexOf('\\n')) >= 0) {
    const line = rest.slice(0, nl); rest = rest.slice(nl + 1);
    if (line.startsWith('exit ')) process.exit(Number(line.slice(5)));
    if (line === 'hang') for (;;) {}
    fs.writeSync(3, 'echo:' + line + '\\n');
  }
}
`;

describe('spawnWorker', () => {
  let dir: string;
  let entry: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bashguard-spawn-worker-'));
    entry = join(dir, 'echo.cjs');
    writeFileSync(entry, ECHO);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const collect = (w: WorkerProcess) => {
    let replies = '';
    w.onReply((chunk) => {
      replies += chunk.toString();
    });
    const exit = new Promise<[number | null, string | null]>((resolve) => w.onExit((code, signal) => resolve([code, signal])));
    return { replies: () => replies, exit };
  };

  it('replies in order, the end of its input ends it (exit 0), and it is reported ended', async () => {
    const w = spawnWorker({ PATH: process.env.PATH }, entry);
    expect(w.via).toBe(ADDON ? 'addon' : 'node:child_process');
    const c = collect(w);
    for (let i = 0; i < 200; i++) w.send(`line ${i} ${'x'.repeat(i * 10)}\n`);
    w.endInput();
    expect(await c.exit).toEqual([0, null]);
    expect(w.ended).toBe(true);
    const lines = c.replies().trim().split('\n');
    expect(lines).toHaveLength(200);
    expect(lines[199]).toBe(`echo:line 199 ${'x'.repeat(1990)}`);
    // Sending after the end is a no-op, not an error.
    w.send('late\n');
  });

  it('reports an exit code, and SIGKILL by name', async () => {
    const a = spawnWorker({ PATH: process.env.PATH }, entry);
    const ca = collect(a);
    a.send('exit 3\n');
    expect(await ca.exit).toEqual([3, null]);
    const b = spawnWorker({ PATH: process.env.PATH }, entry);
    const cb = collect(b);
    b.send('hang\n');
    b.kill();
    expect(await cb.exit).toEqual([null, 'SIGKILL']);
    // A second kill of an ended child does nothing.
    b.kill();
  });

  it.skipIf(!ADDON)('through the addon: the child gets the env given, writes its stderr to this process\'s, its stdout nowhere', () => {
    // In a process of its own, so that what it loads and prints can be watched: the module
    // bundled as the lint bundles are (its addon found from the source tree's place).
    const bundle = join(dir, 'spawn-worker.cjs');
    buildSync({
      entryPoints: [join(REPO_ROOT, 'src', 'frontends', 'lint', 'spawn-worker.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: bundle,
      logLevel: 'silent',
      define: { 'import.meta.url': JSON.stringify(pathToFileURL(join(REPO_ROOT, 'src', 'util', 'package-root.ts')).href) },
    });
    const probe = join(dir, 'probe.cjs');
    writeFileSync(
      probe,
      `const { spawnWorker } = require(${JSON.stringify(bundle)});\n` +
        `const w = spawnWorker({ PATH: process.env.PATH, BG_TEST_MARK: 'marked' }, ${JSON.stringify(entry)});\n` +
        `w.onExit((code) => { process.stdout.write('exit ' + code + ' via ' + w.via + '\\n'); });\n` +
        `w.send('a\\n'); w.endInput();\n`,
    );
    const r = spawnSync(process.execPath, [probe], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(r.stdout.trim(), r.stderr).toBe('exit 0 via addon');
    expect(r.stderr).toContain('child stderr marked');
    expect(r.stdout).not.toContain('to stdout');
  });
});

describe('totalBytes (the share of work: one stat per operand, through the addon where it is built)', () => {
  it('counts regular files (through links too), and nothing for directories, missing paths, FIFOs and stdin', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-total-bytes-'));
    try {
      writeFileSync(join(dir, 'a.sh'), 'x'.repeat(1234));
      writeFileSync(join(dir, 'empty.sh'), '');
      mkdirSync(join(dir, 'sub'));
      symlinkSync(join(dir, 'a.sh'), join(dir, 'link.sh'));
      spawnSync('mkfifo', [join(dir, 'fifo')]);
      const paths = ['a.sh', 'empty.sh', 'sub', 'link.sh', 'fifo', 'missing.sh'].map((p) => join(dir, p));
      expect(totalBytes([...paths, '-'])).toBe(2468);
      expect(paths.map(fileSize)).toEqual([1234, 0, 0, 1234, 0, 0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
