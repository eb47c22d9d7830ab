/**
 * The command registry: the generated index lists every spec module (scripts/gen-commands.mjs,
 * run by the build), so adding a command touches one spec; importing the registry builds no
 * spec, and a lookup builds only the spec it finds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module without types
import { INDEX, renderIndex, specFiles, specsInOneModule } from '../../../../scripts/gen-commands.mjs';
import ts from 'typescript';
import { knownCommands, lookupCommand, specModules } from '../../../../src/engine/commands/registry.js';
import type { SpecModule } from '../../../../src/engine/commands/spec.js';

// Count every spec's builds before anything here looks a command up (vitest runs each test file
// in a fresh module graph, so nothing has been built yet).
const builds = new Map<SpecModule, number>();
for (const s of specModules()) {
  const build = s.build;
  (s as { build: SpecModule['build'] }).build = () => {
    builds.set(s, (builds.get(s) ?? 0) + 1);
    return build();
  };
}

describe('the generated index', () => {
  it('src/engine/commands/specs/index.generated.ts lists every spec file (run `node scripts/gen-commands.mjs`)', () => {
    expect(readFileSync(INDEX, 'utf8')).toBe(renderIndex(specFiles()));
  });

  it('the index is read from the specs folder', () => {
    expect(INDEX).toBe(join(import.meta.dirname, '..', '..', '..', '..', 'src', 'engine', 'commands', 'specs', 'index.generated.ts'));
  });
});

describe('lazy specs', () => {
  it('listing the names builds no spec; a lookup builds the one spec it finds, once', () => {
    expect(knownCommands().length).toBeGreaterThan(400);
    expect(builds.size).toBe(0);
    const gzip = lookupCommand('gzip');
    expect(gzip?.category).toBe('writes');
    expect(lookupCommand('gunzip')).toBe(gzip);
    expect([...builds].map(([s, n]) => [s.names[0], n])).toEqual([['gzip', 1]]);
    expect(lookupCommand('no-such-tool')).toBeUndefined();
    expect(builds.size).toBe(1);
  });

  it("a spec's output knowledge comes with its lookup", () => {
    expect(typeof lookupCommand('pwd')?.output).toBe('function');
    expect(lookupCommand('touch')?.output).toBeUndefined();
  });
});

describe('the bundles get the specs as one module (scripts/gen-commands.mjs, specsInOneModule)', () => {
  it('every spec file, each in a block of its own, without its examples, parses as TypeScript', async () => {
    let onLoad: (() => Promise<{ contents: string; loader: string }>) | null = null;
    specsInOneModule().setup({ onLoad: (_opts: unknown, cb: typeof onLoad) => (onLoad = cb) });
    const { contents, loader } = await onLoad!();
    expect(loader).toBe('ts');
    const files = specFiles() as string[];
    for (const f of files) expect(contents).toContain(`// ${f}.ts\n`);
    expect(contents).toContain(`export const SPECS: readonly SpecModule[] = [${files.map((_, i) => `spec${i}!`).join(', ')}];`);
    expect(contents).not.toMatch(/\bexport const examples\b/);
    expect(contents).not.toContain("['pigz -c ../../x', 'allow']");
    const out = ts.transpileModule(contents, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    expect(out.diagnostics ?? []).toEqual([]);
  });
});
