/**
 * Command knowledge in one place (issue #39 item 5): every spec (src/engine/commands/specs/*.ts)
 * exports examples of the hook's decision beside its knowledge, and each runs here through the
 * whole engine in the standard layout (cwd: the worktree b1 of /home/dev/repo). A spec file
 * without an example fails, and so does a name two specs claim. Adding a command is one spec
 * and its examples.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import { duplicateNames, specModules } from '../../../../src/engine/commands/registry.js';
import type { Example, SpecModule } from '../../../../src/engine/commands/spec.js';
import { getParser, runScenario } from '../../../helpers/scenario.js';

const parser = await getParser();
const SPECS_DIR = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'engine', 'commands', 'specs');
/** Every spec file with its examples (read from the files: the registry's index does not import them). */
const specs: Array<{ file: string; names: readonly string[]; examples: readonly Example[] }> = [];
for (const f of readdirSync(SPECS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.generated.ts')).sort()) {
  const mod = (await import(pathToFileURL(join(SPECS_DIR, f)).href)) as { default?: SpecModule; examples?: readonly Example[] };
  specs.push({ file: f, names: mod.default?.names ?? [], examples: mod.examples ?? [] });
}

/** Whether `cmd` runs `name` (as a word of the command text). */
function mentions(cmd: string, name: string): boolean {
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\w.+-])${esc}(?:$|[^\\w.+-])`).test(cmd);
}

describe('command knowledge depends on an interface, not the interpreter', () => {
  it('no file of src/engine/commands imports src/engine/interpret/interpreter.ts (handlers see CommandContext)', () => {
    const dir = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'engine', 'commands');
    const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)]));
    const importers = files(dir).filter((f) => f.endsWith('.ts') && /from '(?:\.\.\/)+interpret\/interpreter\.js'/.test(readFileSync(f, 'utf8')));
    expect(importers).toEqual([]);
  });
});

describe('command specs', () => {
  it('there are specs, each file is one the registry knows, and every one has at least one example', () => {
    expect(specs.length).toBeGreaterThan(150);
    expect(specs.length).toBe(specModules().length);
    expect(specs.filter((s) => s.names.length === 0).map((s) => s.file)).toEqual([]);
    expect(specs.filter((s) => s.examples.length === 0).map((s) => s.file)).toEqual([]);
  });

  it('no name is claimed by two specs (lookup order must not decide an entry)', () => {
    expect(duplicateNames()).toEqual([]);
  });

  it("each spec's examples run one of its names", () => {
    const idle = specs.filter((s) => !s.examples.some(([cmd]) => s.names.some((n) => mentions(cmd, n))));
    expect(idle.map((s) => s.file)).toEqual([]);
  });
});

describe('command spec examples', () => {
  for (const spec of specs) {
    for (const [cmd, want] of spec.examples) {
      it(`${spec.file}: ${cmd} -> ${want}`, () => {
        const v = runScenario(parser, cmd).verdict;
        expect({ decision: v.decision, findings: v.findings.map((f) => `${f.rule} ${f.confidence}: ${f.message}`) }).toMatchObject({ decision: want });
      });
    }
  }
});
