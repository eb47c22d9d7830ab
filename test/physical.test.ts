/** src/policy/physical.ts: the per-evaluation cache and the directories known to be physical. */
import { describe, expect, it } from 'vitest';
import { cachedFs, resolvePhysical, type PhysicalFs } from '../src/policy/physical.js';

function countingFs(links: Record<string, string>): PhysicalFs & { asked: string[] } {
  const asked: string[] = [];
  return { asked, readlink: (p) => (asked.push(p), links[p] ?? null) };
}

describe('cachedFs', () => {
  it('asks the file system once per path', () => {
    const fs = countingFs({});
    const c = cachedFs(fs);
    resolvePhysical('/a/b/c', c);
    resolvePhysical('/a/b/d', c);
    expect(fs.asked).toEqual(['/a', '/a/b', '/a/b/c', '/a/b/d']);
  });

  it('does not ask for known physical directories or their parents, but for everything below', () => {
    const fs = countingFs({ '/w/root/link': '/elsewhere' });
    const c = cachedFs(fs, ['/w/root', null, undefined]);
    expect(resolvePhysical('/w/root/link/x', c)).toBe('/elsewhere/x');
    expect(fs.asked).toEqual(['/w/root/link', '/elsewhere', '/elsewhere/x']);
  });

  it('a name that only starts like a known directory is still asked', () => {
    const fs = countingFs({ '/w/root2': '/target' });
    const c = cachedFs(fs, ['/w/root']);
    expect(resolvePhysical('/w/root2/f', c)).toBe('/target/f');
    expect(fs.asked).toContain('/w/root2');
  });
});
