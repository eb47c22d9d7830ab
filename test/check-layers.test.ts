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
import { checkLayers } from '../scripts/check-layers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = (r: string): { problems: string[] } => checkLayers(r);

/** A copy of src/ with `plant` applied: paths are repo paths, imports written relative to the importer. */
function withPlanted(plant: (add: (file: string, ...imports: string[]) => void) => void): string[] {
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
    return check(dir).problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('check-layers', () => {
  it('passes on the real tree', () => {
    expect(check(root).problems).toEqual([]);
  });

  it('fails when the engine imports a front end (a type import is enough)', () => {
    const problems = withPlanted((add) => add('src/parse/planted.ts', 'src/frontends/io.ts'));
    expect(problems.join('\n')).toMatch(/engine \(parse\) must not import frontend core.*src\/parse\/planted\.ts/);
  });

  it('fails when the engine imports the runtime', () => {
    const problems = withPlanted((add) => add('src/syntax/planted.ts', 'src/startup/marks.ts'));
    expect(problems.join('\n')).toMatch(/must not import runtime \(startup\)/);
  });

  it('fails when one front end imports another', () => {
    const problems = withPlanted((add) => add('src/library/planted.ts', 'src/hook/types.ts'));
    expect(problems.join('\n')).toMatch(/library -> hook: front ends do not import one another/);
  });

  it('fails on a folder cycle inside one layer', () => {
    const problems = withPlanted((add) => {
      add('src/env/planted.ts', 'src/audit/index.ts');
    });
    expect(problems.join('\n')).toMatch(/folder cycle: (audit -> env -> audit|env -> audit -> env)/);
  });

  it('fails on a file cycle inside one folder', () => {
    const problems = withPlanted((add) => {
      add('src/util/planted-a.ts', 'src/util/planted-b.ts');
      add('src/util/planted-b.ts', 'src/util/planted-a.ts');
    });
    expect(problems.join('\n')).toMatch(/file cycle: src\/util\/planted-(a|b)\.ts -> src\/util\/planted-(a|b)\.ts/);
  });

  it('fails on a folder it cannot place', () => {
    const problems = withPlanted((add) => add('src/planted-folder/x.ts'));
    expect(problems.join('\n')).toMatch(/'planted-folder' is in no layer/);
  });
});
