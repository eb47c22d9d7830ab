/**
 * The tree-sitter runtime compiled into bashguard's addon, with the one change
 * scripts/tree-sitter-runtime.mjs makes to its parser.c: no error recovery on a paused stack
 * version once a tree that costs less is accepted (the parse would stop right after it and
 * discard the recovery). It must give exactly the trees tree-sitter's own binding gives (its own,
 * unchanged runtime), above all on the inputs that take the changed path: a pipeline of three or
 * more commands at the end of the input, and input cut anywhere.
 *
 * The addon is built at install (scripts/build-native.mjs). Where it was not built these tests
 * say why and skip; in CI (BASHGUARD_REQUIRE_ALL=1) a missing addon is a failure.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { treeAddon } from '../../src/util/tree-addon.js';
import { bindingOrSkip, cannotRun, REPO_ROOT, unless } from '../helpers/shared.js';
import { corpusCommands } from '../helpers/corpus-commands.js';
import { exportAndCursor } from '../helpers/export-and-cursor.js';

const ADDON = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
const skip = existsSync(ADDON) ? null : cannotRun(`the tree export is not built (${ADDON}; npm ci runs scripts/build-native.mjs): its tests are skipped`);
const SCRIPT = join(REPO_ROOT, 'scripts', 'tree-sitter-runtime.mjs');
const TS_PKG = (() => {
  try {
    return createRequire(join(REPO_ROOT, 'package.json')).resolve('tree-sitter/package.json');
  } catch {
    return null;
  }
})();
const noSources = unless(TS_PKG !== null, "scripts/tree-sitter-runtime.mjs: tree-sitter's package (the runtime's C sources it edits) is not installed: npm leaves that optional dependency out where it cannot build it");
const TS_SRC = TS_PKG ? join(dirname(TS_PKG), 'vendor', 'tree-sitter', 'lib', 'src') : '';

const STAGES = ['cat x', 'grep -v "#" f', 'sort -u', 'head -5', 'tee -a log', 'wc -l', 'xargs rm -f', 'sed "s/a/b/"', 'awk \'{print $1}\'', '$(ls)', 'cmd 2>&1', '! true'];

describe.skipIf(skip !== null)("tree-sitter's runtime in the addon", () => {
  it('has the change in (the tree-sitter this repository pins is the one the script expects)', () => {
    expect((treeAddon() as unknown as { skipsDiscardedRecovery: boolean }).skipsDiscardedRecovery).toBe(true);
  });

  const noBinding = skip === null ? bindingOrSkip("the addon's runtime against tree-sitter's own binding") : null;
  it.skipIf(noBinding !== null)("gives tree-sitter's own trees on pipelines at the end of the input, cut scripts and the corpus", () => {
    const both = exportAndCursor();
    const inputs: string[] = [...corpusCommands()];
    for (let n = 1; n <= 8; n++) {
      const pipe = STAGES.slice(0, n).join(' | ');
      inputs.push(pipe, `${pipe}\n`, `${pipe} &`, `x=1; ${pipe}`, `${pipe} |`, `if a; then ${pipe}`, `${pipe} && ${pipe}`, `(${pipe}`);
    }
    // Repository scripts cut at every 7th character: the parse ends anywhere, in errors too.
    for (const f of ['bin/bashguard-hook', '.ci/run', 'test/fixtures/lint/project/escapes.sh']) {
      const text = readFileSync(join(REPO_ROOT, f), 'utf8');
      for (let i = 1; i < text.length; i += 7) inputs.push(text.slice(0, i));
    }
    let errors = 0;
    for (const s of inputs) {
      const [ours, theirs] = both(s);
      if (!isDeepStrictEqual(ours, theirs)) expect(ours, JSON.stringify(s.slice(0, 200))).toEqual(theirs);
      if ('hasErrors' in ours && ours.hasErrors) errors++;
    }
    expect(inputs.length).toBeGreaterThan(2000);
    expect(errors).toBeGreaterThan(200);
  });

  it.skipIf(noBinding !== null)('gives the same trees on generated pipelines and lists', () => {
    const both = exportAndCursor();
    const stage = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STAGES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
    const source = fc
      .array(fc.tuple(stage, fc.constantFrom(' | ', ' |& ', ' && ', '; ', '\n', ' || ')), { minLength: 1, maxLength: 9 })
      .chain((parts) => fc.constantFrom('', '\n', ' |', ';', ' &').map((end) => parts.map(([p, sep], i) => (i === parts.length - 1 ? p : p + sep)).join('') + end));
    fc.assert(
      fc.property(source, (s) => {
        const [ours, theirs] = both(s);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 400 },
    );
  });
});

describe.skipIf(noSources !== null)('scripts/tree-sitter-runtime.mjs', () => {
  const run = (src: string, out: string) => spawnSync(process.execPath, [SCRIPT, src, out], { encoding: 'utf8' });

  it("changes exactly the resume in tree-sitter's parser.c, and writes a lib.c that compiles it in its place", () => {
    const out = mkdtempSync(join(tmpdir(), 'bashguard-ts-runtime-'));
    try {
      const r = run(TS_SRC, out);
      expect([r.status, r.stderr]).toEqual([0, '']);
      const before = readFileSync(join(TS_SRC, 'parser.c'), 'utf8').split('\n').map((l) => l.trim());
      const after = readFileSync(join(out, 'bashguard-ts-parser.c'), 'utf8').split('\n').map((l) => l.trim());
      // Every line is still there (the resume's three lines only moved into the condition)...
      expect(before.filter((l) => !after.includes(l))).toEqual([]);
      // ...and five lines are new: the header, the marker, a comment, the condition and its brace.
      expect(after.filter((l) => !before.includes(l) && !l.startsWith('//'))).toEqual([
        '#define BASHGUARD_SKIPS_DISCARDED_RECOVERY 1',
        'if (!(self->finished_tree.ptr && ts_subtree_error_cost(self->finished_tree) < min_error_cost)) {',
      ]);
      expect(after.length - before.length).toBe(5);
      const lib = readFileSync(join(out, 'bashguard-ts-lib.c'), 'utf8');
      expect(lib).toContain('#include "bashguard-ts-parser.c"');
      expect(lib).not.toContain('#include "./parser.c"');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('writes the runtime unchanged, and says so, for a parser.c it does not know; fails on a lib.c without parser.c', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-ts-runtime-'));
    try {
      const src = join(dir, 'src');
      cpSync(TS_SRC, src, { recursive: true });
      const other = readFileSync(join(src, 'parser.c'), 'utf8').replace('LOG("resume version:%u", i);', 'LOG("resume %u", i);');
      writeFileSync(join(src, 'parser.c'), other);
      const r = run(src, join(dir, 'out'));
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/^bashguard: tree-sitter's parser\.c is not the one expected; its runtime is compiled unchanged/);
      const written = readFileSync(join(dir, 'out', 'bashguard-ts-parser.c'), 'utf8');
      expect(written.slice(written.indexOf('\n') + 1)).toBe(other);
      writeFileSync(join(src, 'lib.c'), '#include "./alloc.c"\n');
      const bad = run(src, join(dir, 'out2'));
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/does not include \.\/parser\.c once/);
      expect(existsSync(join(dir, 'out2', 'bashguard-ts-lib.c'))).toBe(false);
      expect(run('', '').status).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
