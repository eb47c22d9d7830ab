/** src/policy/physical.ts: the per-evaluation cache and the directories known to be physical. */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadNativeBackend } from '../../../src/engine/parse/native.js';
import { cachedFs, nodeFs, resolvePhysical, type PhysicalFs } from '../../../src/policy/physical.js';
import { HOLE } from '../../../src/engine/effects/types.js';
import { nativeLstat, registerNativeLstat } from '../../../src/util/native-lstat.js';
import { cannotRun, REPO_ROOT } from '../../helpers/shared.js';

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

/**
 * The real file system (nodeFs): with bashguard's native lstat (registered by the parser layer when
 * its addon loads, src/util/native-lstat.ts) and with Node's lstatSync, every path resolves the
 * same, and exists() answers the same.
 */
describe('nodeFs with and without the native lstat', () => {
  const ADDON = join(REPO_ROOT, 'build', 'Release', 'bashguard_tree.node');
  const skip = existsSync(ADDON) ? null : cannotRun(`the tree export is not built (${ADDON}): the native lstat is not there to compare`);

  it.skipIf(skip !== null)(`resolves symlinks, missing and non-directory parents alike${skip ? ` (${skip})` : ''}`, () => {
    loadNativeBackend('export');
    const native = nativeLstat();
    expect(native).not.toBeNull();
    const d = realpathSync(mkdtempSync(join(tmpdir(), 'bg-physical-')));
    try {
      mkdirSync(join(d, 'dir'));
      writeFileSync(join(d, 'file'), '');
      symlinkSync(join(d, 'dir'), join(d, 'to-dir'));
      symlinkSync('dir', join(d, 'rel'));
      symlinkSync(join(d, 'gone'), join(d, 'dangling'));
      symlinkSync('loop2', join(d, 'loop1'));
      symlinkSync('loop1', join(d, 'loop2'));
      writeFileSync(join(d, 'dir', 'é \ufffd'), '');
      const paths = ['', 'dir', 'file', 'to-dir', 'to-dir/x', 'rel/../file', 'dangling', 'dangling/x', 'loop1/x', 'file/x', 'gone/x/y', 'dir/é \ud800', 'a\0b', 'x'.repeat(5000)].map((p) => join(d, p));
      const answers = (): [string, boolean, string | null][] => {
        const c = cachedFs(nodeFs, [d]);
        return paths.map((p): [string, boolean, string | null] => [resolvePhysical(p, c), nodeFs.exists!(p), nodeFs.readlink(p)]);
      };
      const withNative = answers();
      registerNativeLstat(null);
      const withNode = answers();
      expect(withNative).toEqual(withNode);
      // And they are the real answers, not two equal wrong ones.
      expect(withNode[3]).toEqual([join(d, 'dir'), true, join(d, 'dir')]);
      expect(withNode[6]).toEqual([join(d, 'gone'), true, join(d, 'gone')]);
      expect(withNode[9]).toEqual([join(d, 'file', 'x'), false, null]);
      expect(withNode[11]![1]).toBe(true); // the lone surrogate is U+FFFD on disk, for both
    } finally {
      registerNativeLstat(native);
      rmSync(d, { recursive: true, force: true });
    }
  });

  it.skipIf(skip !== null)(`lstatKind refuses a non-string${skip ? ` (${skip})` : ''}`, () => {
    const x = { exports: {} as Record<string, (...a: unknown[]) => unknown> };
    process.dlopen(x, ADDON);
    expect(() => x.exports.lstatKind!(42)).toThrow(/must be a string/);
    expect(() => x.exports.lstatKind!()).toThrow(/must be a string/);
    expect(x.exports.lstatKind!('/')).toBe(1);
  });
});

describe('resolvePhysical and /proc', () => {
  it('/proc/<pid>/root is `/`; /proc/<pid>/cwd (self, thread-self, a pid, a task) is unknown from there on', () => {
    const fs = countingFs({ '/proc/self': '4242' });
    expect(resolvePhysical('/proc/self/root/repo/README.md', fs)).toBe('/repo/README.md');
    expect(resolvePhysical('/proc/1/root/etc/passwd', fs)).toBe('/etc/passwd');
    for (const p of ['/proc/self/cwd/../README.md', '/proc/thread-self/cwd/x', '/proc/77/cwd/x', '/proc/77/task/78/cwd/x']) {
      const r = resolvePhysical(p, fs);
      expect(r).toContain(HOLE);
      // The part after the unknown directory is kept as written (`..` is not applied to it).
      expect(r.slice(r.indexOf(HOLE) + 1)).toBe(p.slice(p.indexOf('/cwd') + 4));
    }
    // Only in /proc: a directory called cwd elsewhere is an ordinary one.
    expect(resolvePhysical('/home/cwd/x', fs)).toBe('/home/cwd/x');
    expect(resolvePhysical('/proc/cpuinfo', fs)).toBe('/proc/cpuinfo');
  });
});
