/**
 * bashguard's tree export (native/tree-export.c): one call parses and writes the whole tree into a
 * Uint32Array, which copyExported turns into the parser-neutral tree. It must give exactly the
 * tree the cursor copy of tree-sitter's own binding gives (copyTree), for every input; its
 * buffer growth, timeout, per-thread state and bad arguments are checked here too.
 *
 * The addon is built at install (scripts/build-native.mjs). Where it was not built these tests
 * say why and skip; in CI (BASHGUARD_REQUIRE_ALL=1) a missing addon is a failure.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { getParser } from '../../../src/engine/parse/index.js';
import { loadNative, loadNativeBackend, nativeLoadMethod } from '../../../src/engine/parse/native.js';
import { copyExported, symbolNames, type ExportedTree } from '../../../src/engine/parse/tree.js';
import { bindingOrSkip, cannotRun, REPO_ROOT, sharedDirOrSkip } from '../../helpers/shared.js';
import { corpusCommands } from '../../helpers/corpus-commands.js';
import { exportAndCursor, type Copied } from '../../helpers/export-and-cursor.js';

const ADDON = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
const built = existsSync(ADDON);
const skip = built ? null : cannotRun(`the tree export is not built (${ADDON}; npm ci runs scripts/build-native.mjs): its tests are skipped`);

/** Inputs with errors, MISSING nodes, comments in odd places, non-ASCII text and heredocs. */
const SHAPES = [
  '',
  'echo hi',
  'echo (',
  'if true; then echo',
  'fi',
  'echo $( # x',
  'cat <<EOF\n# x\n$(y)\nEOF\n# y',
  'cat <<-"E"\n\tz\n\tE\necho after',
  'echo "é ü" 日本 😀 > "/tmp/😀/x" && cd ü',
  'echo \ud800 lone \udc00 surrogates',
  'echo a\r\nb\r\n',
  'x=( # c\n a b ) # d',
  '[[ $a =~ ^b(c)$ ]] && (( i++ )) # c',
  'f() { local x=$1; shift; echo "${x##*/}" >&2; } ; f a b',
  'case $x in a|b) echo 1;; *) ;; esac',
  "echo $'a\\'b' \"$(printf '%s' \"`date`\")\"",
  'a | b |& c && d || e ; f & g',
  '{ echo; } > out 2>&1 <in 3<>rw',
  'for ((i=0;i<3;i++)); do :; done; select x in a; do break; done',
  'echo ${x:-${y:=$(z)}} ${#arr[@]} ${!p} ${x/a/b}',
];

function sharedInputs(): string[] {
  const dir = sharedDirOrSkip().dir;
  if (!dir) return [];
  const out: string[] = [];
  for (const line of readFileSync(join(dir, 'corpora', 'parser_tests', 'tree-sitter-bash.jsonl'), 'utf8').split('\n')) {
    if (line.trim()) out.push(String((JSON.parse(line) as { input: unknown }).input));
  }
  const lines = (f: string, n: number): string[] => readFileSync(join(dir, 'corpora', 'commands', f), 'utf8').split('\n').filter((l) => l.trim() !== '').slice(0, n);
  return [...out, ...lines('nl2bash.cm', 3000), ...lines('tldr.txt', 3000)];
}

describe.skipIf(!built)(`tree export${skip ? ` (${skip})` : ''}`, () => {
  const noBinding = bindingOrSkip('the tree export beside the binding');
  it.skipIf(noBinding !== null)('is the native parser by default, and tree-sitter\'s binding stays loadable beside it', async () => {
    expect(loadNative().loadedBy).toBe('export');
    expect(nativeLoadMethod()).toBe('export');
    expect(loadNativeBackend('direct').loadedBy).toBe('direct');
    // Through the parser layer: a real tree.
    const r = (await getParser('native')).parse('git -C ../.. commit -m x');
    expect(r.ok && r.root.children[0]!.type).toBe('command');
  });

  it.skipIf(noBinding !== null)('gives the same trees as the cursor copy of tree-sitter\'s binding', () => {
    const both = exportAndCursor();
    const inputs = [...SHAPES, ...corpusCommands(), ...sharedInputs()];
    let same = 0;
    let withErrors = 0;
    for (const s of inputs) {
      const [a, b] = both(s);
      if (!isDeepStrictEqual(a, b)) expect(a, JSON.stringify(s)).toEqual(b);
      same++;
      if ('hasErrors' in a && a.hasErrors) withErrors++;
    }
    expect(same).toBe(inputs.length);
    // The comparison covered error trees too.
    expect(withErrors).toBeGreaterThan(3);
  });

  it('grows its array for a large tree, drops a huge one after use, and stays right afterwards', () => {
    const exp = loadNativeBackend('export');
    // No time limit: the parser keeps the one the last parse set (the time left of its budget),
    // which a 400,000-node parse on a loaded machine can exceed.
    exp.setTimeoutMicros(0);
    const names = symbolNames();
    const copy = (s: string): Copied => copyExported(exp.walk(s, s.length + 1) as ExportedTree, 10_000, Infinity, names);
    const nodes = (c: Copied): number => {
      if (!('root' in c)) throw new Error('no tree');
      let n = 0;
      const stack = [c.root];
      while (stack.length) {
        n++;
        for (const k of stack.pop()!.children) stack.push(k);
      }
      return n;
    };
    const medium = 'echo a b c; '.repeat(500); // ~3,000 nodes: more than the first array holds
    const huge = 'a;'.repeat(200_000); // ~400,000 nodes: an array of more than 2^20 words
    const small = 'cd .. && touch x';
    const smallNodes = nodes(copy(small));
    expect(nodes(copy(medium))).toBeGreaterThan(2000);
    const big = exp.walk(huge, huge.length + 1) as ExportedTree;
    expect(big.count).toBeGreaterThan(1 << 18);
    expect(nodes(copyExported(big, 10_000, Infinity, names))).toBe(big.count);
    // The next parse is into the kept (smaller) array and still whole.
    const after = exp.walk(small, small.length + 1) as ExportedTree;
    expect(after.words.length).toBeLessThanOrEqual(1 << 20);
    expect(nodes(copyExported(after, 10_000, Infinity, names))).toBe(smallNodes);
  });

  it('stops at the timeout, and after reset parses the next input from scratch', () => {
    const exp = loadNativeBackend('export');
    const long = 'echo "$(a | b) ${c}" && '.repeat(20_000) + 'true';
    exp.setTimeoutMicros(1);
    expect(exp.walk(long, long.length + 1)).toBe(null);
    exp.reset();
    exp.setTimeoutMicros(0);
    const t = copyExported(exp.walk('ls -la', 7) as ExportedTree, 100);
    expect('root' in t && [t.root.end, t.root.children[0]!.type]).toEqual([6, 'command']);
  });

  it('reports depth and a broken array as the cursor copy does, or as a parser error', async () => {
    const deep = '$('.repeat(500) + ')'.repeat(500);
    const r = (await getParser('native')).parse(deep);
    expect(!r.ok && r.kind).toBe('too-deep');
    const fake = (words: number[], count: number): ExportedTree => ({ words: Uint32Array.from(words), count, symbol: () => ['program', true], fieldName: () => null });
    // A root claiming two children with only one after it.
    expect(() => copyExported(fake([1, 0, 1, 2, 1, 0, 1, 0], 2), 100)).toThrow(/fewer nodes/);
    expect(() => copyExported(fake([1, 0, 1, 0, 1, 0, 1, 0], 2), 100)).toThrow(/more nodes/);
    expect(() => copyExported(fake([], 0), 100)).toThrow(/0 nodes/);
  });

  it('keeps one parser per thread: a worker parses beside the main thread', async () => {
    const grammarDir = join(REPO_ROOT, 'node_modules', 'tree-sitter-bash');
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { existsSync } = require('node:fs');
      const x = { exports: {} }; process.dlopen(x, workerData.addon);
      const files = [workerData.grammar + '/build/Release/tree_sitter_bash_binding.node', workerData.grammar + '/prebuilds/' + process.platform + '-' + process.arch + '/tree-sitter-bash.node'];
      const g = { exports: {} }; process.dlopen(g, files.find((f) => existsSync(f)));
      x.exports.setLanguage(g.exports.language);
      const out = new Uint32Array(4096);
      let n = 0;
      for (let i = 0; i < 2000; i++) n = x.exports.parse('echo worker ' + i + ' > f', out);
      parentPort.postMessage(Array.from(out.subarray(0, n * 4)));
    `;
    const w = new Worker(code, { eval: true, workerData: { addon: ADDON, grammar: grammarDir } });
    const fromWorker = new Promise<number[]>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    const exp = loadNativeBackend('export');
    for (let i = 0; i < 2000; i++) exp.walk(`ls main ${i}`, 12);
    const words = await fromWorker;
    await w.terminate();
    // The worker's last tree is its own input's, not the main thread's.
    expect(words[2]).toBe('echo worker 1999 > f'.length);
    const mine = exp.walk('ls main 1999', 13) as ExportedTree;
    expect(mine.words[2]).toBe(12);
  });

  it.skipIf(process.platform === 'win32')('releaseStderr: descriptor 2 goes to /dev/null, so a caller reading it through a pipe is let go', () => {
    const code = `const x = { exports: {} }; process.dlopen(x, ${JSON.stringify(ADDON)});
      process.stderr.write('before\\n');
      const done = x.exports.releaseStderr();
      process.stderr.write('after\\n');
      require('fs').writeSync(2, 'after, raw\\n');
      process.stdout.write(JSON.stringify({ done, fd2: require('fs').readlinkSync('/proc/self/fd/2') }));`;
    const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('before\n');
    expect(JSON.parse(r.stdout)).toEqual({ done: true, fd2: '/dev/null' });
  });

  it('refuses bad arguments with an error, never a crash', () => {
    const x = { exports: {} as Record<string, (...a: unknown[]) => unknown> };
    process.dlopen(x, ADDON);
    const e = x.exports;
    // It starts with the compiled-in grammar (binding.gyp).
    expect(e.symbol!(1)).toEqual(['word', true]);
    expect(() => e.setLanguage!({})).toThrow(/not a tree-sitter language/);
    expect(() => e.exportInto!(new Uint32Array(8))).toThrow(/no tree to export/);
    expect(() => e.setTimeoutMicros!(-1)).toThrow(/microseconds/);
    const grammar = { exports: {} as Record<string, unknown> };
    const dir = join(REPO_ROOT, 'node_modules', 'tree-sitter-bash');
    process.dlopen(grammar, [join(dir, 'build', 'Release', 'tree_sitter_bash_binding.node'), join(dir, 'prebuilds', `${process.platform}-${process.arch}`, 'tree-sitter-bash.node')].find((f) => existsSync(f))!);
    e.setLanguage!(grammar.exports.language);
    expect(() => e.symbol!(70_000)).toThrow(/bad symbol/);
    expect(() => e.fieldName!('x')).toThrow(/bad field id/);
    expect(e.fieldName!(0)).toBe(null);
    expect(e.symbol!(65535)).toEqual(['ERROR', true]);
  });
});

describe('scripts/build-native.mjs', () => {
  it('never fails the install: a build that breaks says why in one line and leaves no addon', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bashguard-native-'));
    try {
      cpSync(join(REPO_ROOT, 'scripts', 'build-native.mjs'), join(dir, 'scripts', 'build-native.mjs'));
      cpSync(join(REPO_ROOT, 'scripts', 'tree-sitter-runtime.mjs'), join(dir, 'scripts', 'tree-sitter-runtime.mjs'));
      cpSync(join(REPO_ROOT, 'binding.gyp'), join(dir, 'binding.gyp'));
      cpSync(join(REPO_ROOT, 'native'), join(dir, 'native'), { recursive: true });
      writeFileSync(join(dir, 'package.json'), '{"name":"x","private":true}');
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
      writeFileSync(join(dir, 'native', 'tree-export.c'), 'this is not C;\n');
      const r = spawnSync(process.execPath, [join(dir, 'scripts', 'build-native.mjs')], { encoding: 'utf8', env: { ...process.env, npm_config_node_gyp: '' } });
      expect(r.status).toBe(0);
      // No prebuilt binary in this copy: a build, which fails.
      expect(r.stderr).toMatch(/^bashguard: building the tree export from source \(no prebuilt binary for [\w-]+/);
      expect(r.stderr).toMatch(/\nbashguard: could not build the tree export \(/);
      expect(r.stderr).toMatch(/same results, slower/);
      expect(existsSync(join(dir, 'build', 'Release', 'bashguard_tree.node'))).toBe(false);
      // And the opt-out.
      const off = spawnSync(process.execPath, [join(dir, 'scripts', 'build-native.mjs')], { encoding: 'utf8', env: { ...process.env, BASHGUARD_NATIVE_BUILD: '0' } });
      expect([off.status, off.stderr]).toEqual([0, expect.stringMatching(/^bashguard: BASHGUARD_NATIVE_BUILD=0: tree export not installed/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
