/**
 * What doctor names beside the write roots (issue 51 item 1): the places outside them that the
 * user's own tools are set up to write (a user-level bin dir on PATH, npm's global prefix in
 * HOME), which fail under enforcement until the user adds them to `writeRoots`, and the default
 * tool caches that do not exist yet (not created: HOME is read-only to the command).
 */
import { existsSync } from 'node:fs';
import type { Env } from '../../policy/workspace/config.js';
import { toolCacheRoots } from '../../policy/write-roots.js';
import { isInside } from '../../engine/shell/paths.js';
import { readRegularFile } from '../../util/safe-read.js';

export function userWriteHints(env: Env, roots: readonly string[]): string[] {
  const home = env.HOME?.startsWith('/') ? env.HOME.replace(/\/+$/, '') : null;
  if (!home) return [];
  const covered = (p: string) => roots.some((r) => p === r || isInside(p, r));
  const out: string[] = [];
  const path = (env.PATH ?? '').split(':');
  for (const [dir, tools] of [
    [`${home}/.local`, 'pip --user, pipx'],
    [`${home}/.cargo/bin`, 'cargo install'],
    [`${home}/go/bin`, 'go install'],
  ] as const) {
    if (!covered(dir) && path.some((p) => p === dir || isInside(p, dir))) out.push(`${dir} (${tools}; on PATH)`);
  }
  // pyenv's shims (PYENV_ROOT need not be in HOME): `pip install` ends with a rehash that writes there.
  for (const dir of path) if (/\/\.pyenv\/shims\/?$/.test(dir) && !covered(dir) && !out.some((o) => o.startsWith(`${dir} `))) out.push(`${dir} (pyenv rehash after pip install; on PATH)`);
  const npmrc = readRegularFile(`${home}/.npmrc`, { maxBytes: 64 * 1024 });
  const prefix = npmrc.ok ? /^\s*prefix\s*=\s*(\S+)\s*$/m.exec(npmrc.text)?.[1]?.replace(/^~(?=\/)/, home) : undefined;
  if (prefix && prefix.startsWith('/') && !covered(prefix)) out.push(`${prefix} (npm's global prefix, npm install -g)`);
  const missing = toolCacheRoots(env).filter((c) => !existsSync(c.path)).map((c) => c.path);
  const hints = out.length ? [`read-only under enforcement although your tools write there: ${out.join(', ')}; add what you need to writeRoots in the user config (a program planted there runs outside the sandbox)`] : [];
  if (missing.length) hints.push(`tool caches that do not exist and are not created (HOME is read-only to the command): ${missing.join(', ')}`);
  return hints;
}
