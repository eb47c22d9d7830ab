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

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const check = (r: string): { problems: string[] } => checkLayers(r);

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
  });
});
