/** Every `cmd` string in the repository's corpus (corpus/*.yaml), in file order: inputs for parser tests that must run without ../shared. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { REPO_ROOT } from './shared.js';

export function corpusCommands(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(join(REPO_ROOT, 'corpus')).filter((n) => n.endsWith('.yaml')).sort()) {
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object') {
        const cmd = (x as { cmd?: unknown }).cmd;
        if (typeof cmd === 'string') out.push(cmd);
        Object.values(x).forEach(walk);
      }
    };
    walk(parseYaml(readFileSync(join(REPO_ROOT, 'corpus', f), 'utf8')));
  }
  return out;
}
