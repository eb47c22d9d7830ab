/**
 * Command knowledge in one place (issue #39 item 5): the examples beside each entry of the
 * command table (`examples` in src/engine/commands/table.ts) run as tests, each through the whole engine
 * in the standard layout. Adding a command is one entry and its examples.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownCommands, lookupCommand } from '../../../../src/engine/commands/registry.js';
import { getParser, runScenario } from '../../../helpers/scenario.js';

const parser = await getParser();

const withExamples = knownCommands()
  .map((name) => [name, lookupCommand(name)?.examples ?? []] as const)
  .filter(([, ex]) => ex.length > 0);

describe('command knowledge depends on an interface, not the interpreter', () => {
  it('no file of src/engine/commands imports src/engine/interpret/interpreter.ts (handlers see CommandContext)', () => {
    const dir = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'engine', 'commands');
    const importers = readdirSync(dir).filter((f) => f.endsWith('.ts') && /from '\.\.\/interpret\/interpreter\.js'/.test(readFileSync(join(dir, f), 'utf8')));
    expect(importers).toEqual([]);
  });
});

describe('command table examples', () => {
  it('entries carry examples (the families this issue touched at least)', () => {
    const names = withExamples.map(([n]) => n);
    for (const n of ['git', 'tar', 'unzip', 'cp', 'mv', 'patch', 'npm', 'go', 'docker', 'sqlite3']) expect(names).toContain(n);
  });

  for (const [name, examples] of withExamples) {
    for (const [cmd, want] of examples) {
      // An entry shared by several names (podman: docker) runs its examples once, under the first.
      if (!cmd.split(/\s+/).includes(name) && !cmd.startsWith(`${name} `)) continue;
      it(`${name}: ${cmd} -> ${want}`, () => {
        const v = runScenario(parser, cmd).verdict;
        expect({ decision: v.decision, findings: v.findings.map((f) => `${f.rule} ${f.confidence}: ${f.message}`) }).toMatchObject({ decision: want });
      });
    }
  }
});
