/**
 * scripts/check-layers.mjs: the real tree passes; a copy with a planted violation (an engine file
 * importing a front end, a folder cycle, a file cycle, an unplaced folder) fails, naming it.
 */
import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ESM script without declarations
import { checkLayers } from '../../scripts/check-layers.mjs';
// @ts-expect-error: a plain ESM script without declarations
import { checkSizes } from '../../scripts/check-sizes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const check = (r: string): { problems: string[] } => checkLayers(r);
const sizes = (r: string, allowed: Record<string, string>): { problems: string[]; notes: string[] } => checkSizes(r, allowed);

/** A function of `lines` lines (declaration to closing brace) named `name`. */
function fn(name: string, lines: number): string {
  return [`export function ${name}(): number {`, '  let n = 0;', ...Array.from({ length: lines - 4 }, () => '  n++;'), '  return n;', '}'].join('\n');
}

/** A copy of src/ with `plant` applied: paths are repo paths, imports written relative to the importer. */
function withPlanted(plant: (add: (file: string, ...imports: string[]) => void) => void, edit?: (dir: string) => void): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bg-layers-'));
  try {
    cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
    plant((file, ...imports) => {
      const spec = (to: string) => {
        const r = posix.relative(posix.dirname(file), to).replace(/\.ts$/, '.js');
        return r.startsWith('.') ? r : './' + r;
      };
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), imports.map((to) => `import type {} from '${spec(to)}';\n`).join('') + 'export const planted = 1;\n');
    });
    edit?.(dir);
    return check(dir).problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('check-layers', () => {
  it('passes on the real tree', () => {
    expect(check(root).problems).toEqual([]);
  });

  describe('fails on a copy with planted violations, naming each', () => {
    // One copy, every violation planted in it: each is reported on its own line.
    const problems = withPlanted((add) => {
      add('src/engine/parse/planted.ts', 'src/frontends/io.ts');
      add('src/engine/syntax/planted.ts', 'src/runtime/startup/marks.ts');
      add('src/frontends/library/planted.ts', 'src/frontends/hook/types.ts');
      add('src/layers/env/planted.ts', 'src/layers/audit/index.ts');
      add('src/util/planted-a.ts', 'src/util/planted-b.ts');
      add('src/util/planted-b.ts', 'src/util/planted-a.ts');
      add('src/planted-folder/x.ts');
      add('src/util/planted-comment.ts');
      add('src/frontends/planted-deep.ts', 'src/runtime/startup/marks.ts', 'src/runtime/index.ts');
      add('src/policy/planted-io.ts', 'src/util/native-io.ts');
    }, (dir) => {
      // A comment naming a moved file, one naming a real file, and the same name outside a comment.
      writeFileSync(join(dir, 'src/util/planted-comment.ts'), [
        '// see src/util/no-such-file.ts and src/util/quote.ts',
        "export const s = 'src/util/also-missing.ts';", ''].join('\n'));
      // A folder the table names that the tree no longer has.
      rmSync(join(dir, 'src/layers/log'), { recursive: true });
      // A function one line over the limit, one at it, a long arrow and method, a file over 800 lines;
      // a generated file over both limits is not checked.
      writeFileSync(join(dir, 'src/util/planted-long.ts'), [
        fn('tooLong', 121), fn('atLimit', 120),
        `export const arrow = (): number => {\n${'  void 0;\n'.repeat(125)}  return 1;\n};`,
        `export class Planted {\n  method(): void {\n${'    void 0;\n'.repeat(125)}  }\n}`,
        ...Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i};`), ''].join('\n'));
      writeFileSync(join(dir, 'src/util/planted.generated.ts'), fn('generated', 900) + '\n');
    }).join('\n');

    it('the engine importing a front end (a type import is enough)', () => {
      expect(problems).toMatch(/engine \(parse\) must not import frontend core.*parse\/planted\.ts/);
    });
    it('the engine importing the runtime', () => {
      expect(problems).toMatch(/engine \(syntax\) must not import runtime \(startup\).*syntax\/planted\.ts/);
    });
    it('a runtime file other than its face, or a helper the runtime owns, imported from outside src/runtime/', () => {
      expect(problems).toMatch(/src\/frontends\/planted-deep\.ts: imports src\/runtime\/startup\/marks\.ts; outside src\/runtime\/ only its face/);
      expect(problems).not.toMatch(/planted-deep\.ts: imports src\/runtime\/index\.ts/);
      expect(problems).toMatch(/src\/policy\/planted-io\.ts: imports src\/util\/native-io\.ts; outside src\/runtime\/ only its face/);
    });
    it('one front end importing another', () => {
      expect(problems).toMatch(/library -> hook: front ends do not import one another.*: .*library\/planted\.ts/);
    });
    it('a folder cycle inside one layer', () => {
      expect(problems).toMatch(/folder cycle: (audit -> env -> audit|env -> audit -> env)/);
    });
    it('a file cycle inside one folder', () => {
      expect(problems).toMatch(/file cycle: src\/util\/planted-(a|b)\.ts -> src\/util\/planted-(a|b)\.ts/);
    });
    it('a folder it cannot place', () => {
      expect(problems).toMatch(/'planted-folder' is in no layer/);
    });
    it('a comment naming a src/ path that is not there, and only that one', () => {
      expect(problems).toMatch(/src\/util\/planted-comment\.ts:1: a comment names src\/util\/no-such-file\.ts/);
      expect(problems).not.toMatch(/names src\/util\/quote\.ts/);
      expect(problems).not.toMatch(/also-missing/);
    });
    it('a folder the table names that src/ does not have', () => {
      expect(problems).toMatch(/UNITS names 'log', which no file of src\/ is in/);
    });
    it('a file over 800 lines and each function over 120, by name and line; not one at 120, not a generated file', () => {
      expect(problems).toMatch(/^src\/util\/planted-long\.ts: \d+ lines, over 800/m);
      expect(problems).toMatch(/^src\/util\/planted-long\.ts:1: tooLong is 121 lines, over 120/m);
      expect(problems).toMatch(/^src\/util\/planted-long\.ts:\d+: arrow is 128 lines, over 120/m);
      expect(problems).toMatch(/^src\/util\/planted-long\.ts:\d+: Planted\.method is 127 lines, over 120/m);
      expect(problems).not.toMatch(/atLimit/);
      expect(problems).not.toMatch(/generated/);
    });
  });

  describe('the size allow-list', () => {
    const run = (allowed: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'bg-sizes-'));
      try {
        mkdirSync(join(dir, 'src'));
        writeFileSync(join(dir, 'src/a.ts'), fn('long', 130) + '\n' + fn('other', 130) + '\n');
        return sizes(dir, allowed);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    it('lets a named offender pass and no other function of its file', () => {
      const r = run({ 'src/a.ts#long': 'issue 0' });
      expect(r.problems.join('\n')).not.toMatch(/long is/);
      expect(r.problems.join('\n')).toMatch(/src\/a\.ts:\d+: other is 130 lines/);
    });
    it('notes an entry that is no longer over the limit', () => {
      const r = run({ 'src/a.ts#long': 'issue 0', 'src/a.ts#gone': 'issue 0' });
      expect(r.notes.join('\n')).toMatch(/src\/a\.ts#gone \(issue 0\) is no longer over the limit/);
      expect(r.notes.join('\n')).not.toMatch(/#long/);
    });
  });
});
