/**
 * The table of which mechanism holds per client and platform (docs/limits.md, issue 51 item 6) is
 * generated from src/frontends/hook/clients/capabilities.ts: the doc must be what the generator
 * writes now, the list must agree with each client's code, and every test it cites must exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES, capabilityTable, checkCapabilities, withTable, type ClientCapability } from '../../../src/frontends/hook/clients/capabilities.js';
import { CLIENTS } from '../../../src/frontends/hook/clients/index.js';
import { REPO_ROOT } from '../../helpers/shared.js';

describe('the capability table', () => {
  it('in docs/limits.md is the one the list generates (node scripts/gen-capabilities.mjs)', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'limits.md'), 'utf8');
    expect(withTable(doc), 'docs/limits.md is stale: run node scripts/gen-capabilities.mjs').toBe(doc);
  });

  it('has one entry per client, and a wrapper exactly where the client can replace the command', () => {
    expect(CAPABILITIES.map((c) => c.client).sort()).toEqual(Object.keys(CLIENTS).sort());
    checkCapabilities();
    // a list that claims a wrapper for a client whose hook cannot replace the command is refused
    const wrong: ClientCapability[] = CAPABILITIES.map((c) => (c.client === 'cursor' ? { ...c, platforms: { ...c.platforms, linux: CAPABILITIES[0]!.platforms.linux } } : c));
    expect(() => checkCapabilities(wrong)).toThrow(/cursor on linux lists a wrapper/);
    const none: ClientCapability[] = CAPABILITIES.map((c) => (c.client === 'claude' ? { ...c, platforms: { ...c.platforms, macos: CAPABILITIES.find((x) => x.client === 'gemini')!.platforms.macos } } : c));
    expect(() => checkCapabilities(none)).toThrow(/claude on macos lists no wrapper/);
  });

  it('cites only tests that exist, and marks every row without one unverified with a reason', () => {
    for (const c of CAPABILITIES) {
      for (const h of [...c.platforms.linux, ...c.platforms.macos]) {
        if (h.verifiedBy) expect(existsSync(join(REPO_ROOT, h.verifiedBy)), h.verifiedBy).toBe(true);
        else expect(h.unverified, `${c.client}: ${h.mechanism}`).toBeTruthy();
      }
    }
    expect(capabilityTable()).toMatch(/\| Cursor \| Linux \| .* \| \*\*unverified\*\*: /);
  });
});
