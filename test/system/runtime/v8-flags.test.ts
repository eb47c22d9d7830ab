/**
 * src/runtime/startup/v8-flags.ts: the V8 flags a bashguard process sets for itself at run time (lint's
 * analysis flags, the hook's WASM flags) go through bashguard's addon where it is loaded
 * (setV8Flags: V8's own v8::V8::SetFlagsFromString), so that no Node version has to load node:v8
 * for them (~1.5 ms on Node 24, which has no v8 binding left).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { v8FlagSetter } from '../../../src/runtime/startup/v8-flags.js';
import { treeAddon } from '../../../src/util/tree-addon.js';
import { REPO_ROOT, addonOrSkip } from '../../helpers/shared.js';

const ADDON_FILE = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
const ADDON = addonOrSkip('v8-flags') === null;

/** Runs `body` in a fresh node; its stdout, parsed as JSON. */
function child(body: string): unknown {
  const r = spawnSync(process.execPath, ['-e', body], { encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

// A flag whose effect JavaScript can see at once: %-calls parse only under --allow-natives-syntax.
const NATIVES = `(() => { try { new Function('return %IsBeingInterpreted()'); return true; } catch { return false; } })()`;

describe.skipIf(!ADDON)('setV8Flags', () => {
  it("sets a V8 flag in this process, as node:v8's setFlagsFromString does, without loading node:v8", () => {
    const out = child(`
      const m = { exports: {} }; process.dlopen(m, ${JSON.stringify(ADDON_FILE)});
      const before = ${NATIVES};
      const ok = m.exports.setV8Flags('--allow-natives-syntax');
      console.log(JSON.stringify([before, ok, ${NATIVES}, process.moduleLoadList.includes('NativeModule v8')]));`);
    expect(out).toEqual([false, true, true, false]);
  });

  it('v8FlagSetter goes through the addon once this process has loaded it', () => {
    const real = treeAddon();
    const calls: string[] = [];
    const slot = Symbol.for('bashguard.treeAddon');
    const g = globalThis as Record<symbol, unknown>;
    g[slot] = Object.create(real, { setV8Flags: { value: (f: string) => (calls.push(f), (real.setV8Flags as (f: string) => boolean)(f)) } });
    try {
      v8FlagSetter()('--allow-natives-syntax');
    } finally {
      g[slot] = real;
    }
    expect(calls).toEqual(['--allow-natives-syntax']);
  });

  it('refuses a non-string with a one-line error', () => {
    const out = child(`
      const m = { exports: {} }; process.dlopen(m, ${JSON.stringify(ADDON_FILE)});
      let msg = null; try { m.exports.setV8Flags(42); } catch (e) { msg = e.message; }
      console.log(JSON.stringify(msg));`);
    expect(out).toBe('setV8Flags: the flags must be a string');
  });
});
