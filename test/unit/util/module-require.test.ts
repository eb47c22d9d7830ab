/**
 * src/util/module-require.ts: processes started with --preserve-symlinks-main (bin/bashguard-hook,
 * the lint children) still find bashguard's dependencies where Node would have, from the module's
 * real path, when the entry was reached through a symlinked package directory (pnpm's layout).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleRequire } from '../../../src/util/module-require.js';

let base: string;
let linked: string;
let store: string;
beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-modreq-')));
  // pnpm: node_modules/.pnpm/pkg@1/node_modules/{pkg,dep}, and node_modules/pkg -> the store's pkg.
  store = join(base, 'proj', 'node_modules', '.pnpm', 'pkg@1', 'node_modules');
  mkdirSync(join(store, 'pkg', 'dist'), { recursive: true });
  mkdirSync(join(store, 'dep'), { recursive: true });
  writeFileSync(join(store, 'dep', 'package.json'), '{"name":"dep","main":"index.js"}');
  writeFileSync(join(store, 'dep', 'index.js'), 'module.exports = 42;');
  writeFileSync(join(store, 'pkg', 'dist', 'mod.cjs'), '');
  symlinkSync(join(store, 'pkg'), join(base, 'proj', 'node_modules', 'pkg'));
  linked = join(base, 'proj', 'node_modules', 'pkg', 'dist', 'mod.cjs');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('moduleRequire', () => {
  it('without --preserve-symlinks-main: the module as named (Node already gave its real path)', () => {
    const real = join(store, 'pkg', 'dist', 'mod.cjs');
    expect(moduleRequire(pathToFileURL(real).href, []).resolve('dep')).toBe(join(store, 'dep', 'index.js'));
    // Named through the link, a dependency beside the real package is out of reach ...
    expect(() => moduleRequire(pathToFileURL(linked).href, []).resolve('dep')).toThrow(/Cannot find module/);
  });

  it('with --preserve-symlinks-main: resolved from the real path, so the dependency is found', () => {
    const req = moduleRequire(pathToFileURL(linked).href, ['--preserve-symlinks-main']);
    expect(req.resolve('dep')).toBe(join(store, 'dep', 'index.js'));
    expect(req('dep')).toBe(42);
  });

  it('a module path that does not exist is taken as given (no throw)', () => {
    const gone = join(base, 'nowhere', 'mod.cjs');
    expect(() => moduleRequire(pathToFileURL(gone).href, ['--preserve-symlinks-main'])).not.toThrow();
  });
});
