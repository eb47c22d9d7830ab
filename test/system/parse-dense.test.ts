/**
 * The grammar's dense parse table (native/dense-table.c, generated at build time and compiled into
 * the tree export with tree-sitter-bash itself). Parsing with it must give exactly the trees the
 * grammar's own table gives, and those tree-sitter-bash's own addon gives (the grammar the tree
 * export took before, and tree-sitter's binding takes), for every input. Lint asks for it; the
 * hook does not (the dense table maps ~4 MB more of the addon's file, and the hook's peak RSS is a
 * target).
 *
 * The addon is built at install (scripts/build-native.mjs). Where it was not built these tests
 * say why and skip; in CI (BASHGUARD_REQUIRE_ALL=1) a missing addon is a failure.
 */
import { existsSync, readFileSync, realpathSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/memory-io.js';
import { loadNative, useDenseParseTable } from '../../src/engine/parse/native.js';
import { treeAddon } from '../../src/util/tree-addon.js';
import { cannotRun, REPO_ROOT } from '../helpers/shared.js';
import { corpusCommands } from '../helpers/corpus-commands.js';

const ADDON = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
const skip = existsSync(ADDON) ? null : cannotRun(`the tree export is not built (${ADDON}; npm ci runs scripts/build-native.mjs): its tests are skipped`);

interface Addon {
  hasDenseTable: boolean;
  useDenseTable(on?: boolean): boolean;
  setLanguage(language: unknown): void;
  parse(source: string, out: Uint32Array): number;
  exportInto(out: Uint32Array): number;
}
const addon = (): Addon => treeAddon() as unknown as Addon;

/** tree-sitter-bash's own addon (a local build first, then the prebuild, as node-gyp-build looks). */
function grammarLanguage(): unknown {
  const dir = join(REPO_ROOT, 'node_modules', 'tree-sitter-bash');
  const file = [join(dir, 'build', 'Release', 'tree_sitter_bash_binding.node'), join(dir, 'prebuilds', `${process.platform}-${process.arch}`, 'tree-sitter-bash.node')].find((f) => existsSync(f))!;
  const m = { exports: {} as { language?: unknown } };
  process.dlopen(m, file);
  return m.exports.language;
}

let words = new Uint32Array(1 << 12);
/** The exported tree's words (4 per node), or null for a parse that gave none. */
function exported(x: Addon, source: string): number[] | null {
  let count = x.parse(source, words);
  if (count === -1) return null;
  let out = words;
  if (count < 0) {
    out = words = new Uint32Array(-count);
    count = x.exportInto(out);
  }
  return Array.from(out.subarray(0, count * 4));
}

/** The tree of `source` with the dense table, with the grammar's own, and with tree-sitter-bash's addon. */
function threeWays(source: string, external: unknown): [number[] | null, number[] | null, number[] | null] {
  const x = addon();
  expect(x.useDenseTable(true)).toBe(true);
  const dense = exported(x, source);
  expect(x.useDenseTable(false)).toBe(false);
  const own = exported(x, source);
  x.setLanguage(external);
  const theirs = exported(x, source);
  x.useDenseTable(false);
  return [dense, own, theirs];
}

/** Pieces of scripts: every construct's usual shapes, and broken ones (error recovery walks the table differently). */
const PIECES = [
  'echo hi > out.txt',
  'cd /x && git -C ../main commit -m "m" 2>&1 | tee -a log',
  'for f in *.sh; do sed -i "s/a/b/" "$f"; done',
  'while read -r l; do printf "%s\\n" "$l"; done < in',
  'case "$1" in a|b) x=1 ;; *) y=$(( x + 2 )) ;; esac',
  'f() { local v=${1:-/tmp}; cp -r "$v" ~/d; }',
  'cat <<EOF > "$out"\n$HOME/x `date`\nEOF',
  'cat <<-\'E\'\n\tliteral $x\n\tE',
  'if [ -d "$d" ]; then pushd "$d"; else exit 1; fi',
  'arr=(a "b c" $(ls)); echo "${arr[@]}" >> f',
  '[[ $x =~ ^[0-9]+$ ]] && (cd sub; make)',
  'echo (',
  'if true; then',
  'done fi }',
  '"unterminated',
  "a'b",
  '<<EOF',
  '$(( 1 +',
  '<!DOCTYPE html><p>x & y</p>',
  'echo é 日本 😀 \\\n  continued',
];

describe.skipIf(skip !== null)('dense parse table', () => {
  it('is built, and switches on and off', () => {
    const x = addon();
    expect(x.hasDenseTable).toBe(true);
    const before = x.useDenseTable();
    try {
      expect(x.useDenseTable(true)).toBe(true);
      expect(x.useDenseTable()).toBe(true);
      expect(x.useDenseTable(false)).toBe(false);
      expect(x.useDenseTable()).toBe(false);
      expect(() => x.useDenseTable('yes' as unknown as boolean)).toThrow(/takes a boolean/);
    } finally {
      x.useDenseTable(before);
    }
  });

  it('gives the trees of the grammar\'s own table and of tree-sitter-bash\'s addon: corpus, fixtures, repository scripts', () => {
    const external = grammarLanguage();
    const files = ['bin/bashguard-hook', '.ci/run', 'test/fixtures/lint/project/filewide.sh', 'test/fixtures/lint/project/escapes.sh', 'test/fixtures/lint/project/broken.sh'];
    const inputs = [...corpusCommands(), ...PIECES, ...files.map((f) => readFileSync(join(REPO_ROOT, f), 'utf8'))];
    let nodes = 0;
    for (const source of inputs) {
      const [dense, own, theirs] = threeWays(source, external);
      expect(dense, JSON.stringify(source.slice(0, 200))).toEqual(own);
      expect(own, JSON.stringify(source.slice(0, 200))).toEqual(theirs);
      nodes += (dense?.length ?? 0) / 4;
    }
    expect(inputs.length).toBeGreaterThan(900);
    expect(nodes).toBeGreaterThan(10_000);
  });

  it('gives the same trees on generated scripts, broken ones included', () => {
    const external = grammarLanguage();
    const script = fc
      .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }), { minLength: 1, maxLength: 12 })
      .chain((parts) => fc.array(fc.constantFrom('\n', '; ', ' && ', ' | ', ' '), { minLength: parts.length, maxLength: parts.length }).map((seps) => parts.map((p, i) => p + seps[i]).join('')));
    fc.assert(
      fc.property(script, (source) => {
        const [dense, own, theirs] = threeWays(source, external);
        expect(dense).toEqual(own);
        expect(own).toEqual(theirs);
      }),
      { numRuns: 300 },
    );
  });

  it('is what lint parses with; the hook\'s parser keeps the grammar\'s own table', async () => {
    const x = addon();
    x.useDenseTable(false);
    // The parser the hook loads (src/frontends/hook: getParser) leaves the table as the grammar has it.
    expect(loadNative().loadedBy).toBe('export');
    expect(x.useDenseTable()).toBe(false);
    // A lint run in this process turns it on for what it parses (and from then on).
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'bg-dense-')));
    try {
      writeFileSync(join(dir, 'a.sh'), '#!/bin/sh\necho hi > out.txt\n');
      expect((await runCli(['lint', '--timeout', '0', '--fail-on', 'none', join(dir, 'a.sh')], { env: { HOME: dir, TMPDIR: dir }, cwd: dir })).code).toBe(0);
      expect(x.useDenseTable()).toBe(true);
      // Asked for again, it says so.
      expect(useDenseParseTable()).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      x.useDenseTable(false);
    }
  });
});
