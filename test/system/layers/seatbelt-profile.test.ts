/**
 * The macOS profile (src/layers/sandbox/seatbelt.ts) against the cases of issue 51: no Mac here,
 * so the generated text is read back by test/helpers/sbpl.ts and its rules evaluated the way
 * Seatbelt checks a call (the path the call names: a create of the new name, an unlink of the old
 * one for a rename). Each escape has a benign twin that must stay allowed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { caseInsensitiveVolume, resolveThroughExisting, seatbeltEnforcementProfile, type ProfileFacts } from '../../../src/layers/sandbox/seatbelt.js';
import type { SandboxPlan } from '../../../src/layers/sandbox/index.js';
import { deniedOp, readRules, renameDenied } from '../../helpers/sbpl.js';

const plain: ProfileFacts = { isDir: () => true, resolve: (p) => p, caseInsensitive: () => false };
const rulesOf = (plan: SandboxPlan, facts: ProfileFacts = plain) => readRules(seatbeltEnforcementProfile(plan, facts));

describe('the Seatbelt profile, evaluated (issue 51 cases)', () => {
  it('denies writing by default: only the read-write grants (and the devices every command writes) are writable', () => {
    // a plan whose base is not writable: the write roots alone (issue 51, item 1)
    const plan: SandboxPlan = { worktree: '/h/w', unreserved: [], grants: [{ path: '/h/w', access: 'rw', why: 'worktree' }, { path: '/private/tmp', access: 'rw', why: 'temp' }, { path: '/h/w/.git', access: 'ro', why: 'git file' }] };
    const r = rulesOf(plan);
    for (const p of ['/h/w/src/a.ts', '/private/tmp/x', '/dev/null', '/dev/fd/3', '/dev/ttys001']) expect(deniedOp(r, 'write', p), p).toBe(false);
    for (const p of ['/h/.ssh/authorized_keys', '/h/other/x', '/usr/local/bin/x', '/h/w/.git', '/etc/hosts', '/dev/disk0']) expect(deniedOp(r, 'write', p), p).toBe(true);
  });

  it('a protected name whose parent does not exist yet cannot be planted by creating or renaming the parent into place', () => {
    const plan: SandboxPlan = { worktree: '/h/w', unreserved: ['/h/.claude/settings.json'], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: '/h/w', access: 'rw', why: 'worktree' }] };
    const r = rulesOf(plan);
    expect(deniedOp(r, 'create', '/h/.claude/settings.json')).toBe(true);
    expect(deniedOp(r, 'create', '/h/.claude'), 'mkdir of the parent').toBe(true);
    expect(renameDenied(r, '/h/prepared', '/h/.claude'), 'a prepared parent renamed into place').toBe(true);
    // benign twins
    expect(deniedOp(r, 'create', '/h/notes')).toBe(false);
    expect(renameDenied(r, '/h/a', '/h/b')).toBe(false);
    expect(deniedOp(r, 'write', '/h/w/src/x.ts')).toBe(false);
    expect(renameDenied(r, '/h/w/a', '/h/w/b')).toBe(false);
  });

  it('no ancestor of a protected path can be renamed or removed with it inside', () => {
    const plan: SandboxPlan = { worktree: '/u/me/w', unreserved: [], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: '/u/me/.claude', access: 'ro', why: 'settings' }, { path: '/u/me/w', access: 'rw', why: 'worktree' }] };
    const r = rulesOf(plan);
    expect(renameDenied(r, '/u/me/.claude', '/u/me/old')).toBe(true);
    expect(renameDenied(r, '/u/me', '/u/away')).toBe(true);
    expect(renameDenied(r, '/u', '/elsewhere')).toBe(true);
    expect(deniedOp(r, 'unlink', '/u/me')).toBe(true);
    // the ancestors' other entries are not touched
    expect(renameDenied(r, '/u/me/a', '/u/me/b')).toBe(false);
    expect(deniedOp(r, 'write', '/u/me/.zsh_history')).toBe(false);
  });

  it('matches names in any case where the volume ignores case, and exactly where it does not', () => {
    const plan: SandboxPlan = { worktree: '/Users/me/w', unreserved: [], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: '/Users/me/.claude', access: 'ro', why: 'settings' }, { path: '/Users/me/w', access: 'rw', why: 'worktree' }, { path: '/Users/me/w/.git', access: 'ro', why: 'git' }] };
    const ci = rulesOf(plan, { ...plain, caseInsensitive: () => true });
    for (const p of ['/Users/me/.claude/settings.json', '/users/ME/.CLAUDE/settings.json', '/USERS/me/.Claude', '/Users/me/W/.GIT/config']) expect(deniedOp(ci, 'write', p), p).toBe(true);
    expect(renameDenied(ci, '/users/me/.CLAUDE', '/users/me/x')).toBe(true);
    // benign twins: the dot is a dot, and a longer name is another name
    for (const p of ['/Users/me/xclaude/a', '/Users/me/.claude2', '/Users/me/w/src/A.ts', '/Users/me/w/.gitignore']) expect(deniedOp(ci, 'write', p), p).toBe(false);
    const cs = rulesOf(plan);
    expect(deniedOp(cs, 'write', '/Users/me/.claude/settings.json')).toBe(true);
    expect(deniedOp(cs, 'write', '/Users/me/.CLAUDE/settings.json'), 'another name on a case-sensitive volume').toBe(false);
  });

  it('escapes every regex character of a name on a case-insensitive volume', () => {
    const odd = '/Vol/a.b(c)+d[e]*f?g{h}|i^j$k\\l';
    const plan: SandboxPlan = { worktree: '/w', unreserved: [], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: odd, access: 'ro', why: 'x' }] };
    const r = rulesOf(plan, { ...plain, caseInsensitive: () => true });
    expect(deniedOp(r, 'write', odd)).toBe(true);
    expect(deniedOp(r, 'write', `${odd.toUpperCase()}/x`)).toBe(true);
    expect(deniedOp(r, 'write', '/Vol/aXb(c)+d[e]*f?g{h}|i^j$k\\l')).toBe(false);
    expect(deniedOp(r, 'write', '/Vol/a.b')).toBe(false);
  });

  it('resolves paths through their existing part: HOME under /tmp (/private/tmp on macOS)', () => {
    const plan: SandboxPlan = { worktree: '/private/tmp/r/w', unreserved: ['/tmp/home/.claude.json'], grants: [{ path: '/', access: 'rw', why: 'b' }, { path: '/tmp/home/.claude', access: 'ro', why: 'settings' }] };
    const macTmp = (p: string) => p.replace(/^\/tmp(?=\/|$)/, '/private/tmp');
    const r = rulesOf(plan, { ...plain, resolve: macTmp });
    expect(deniedOp(r, 'create', '/private/tmp/home/.claude.json')).toBe(true);
    expect(deniedOp(r, 'write', '/private/tmp/home/.claude/settings.json')).toBe(true);
    expect(renameDenied(r, '/private/tmp/home', '/private/tmp/x')).toBe(true);
    expect(deniedOp(r, 'write', '/private/tmp/home/notes')).toBe(false);
  });

  it('resolves a protected path behind a symlink, existing or not (on this file system)', () => {
    const t = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-sbres-')));
    try {
      mkdirSync(join(t, 'real', 'home'), { recursive: true });
      symlinkSync(join(t, 'real'), join(t, 'link'));
      expect(resolveThroughExisting(join(t, 'link', 'home', '.claude.json'))).toBe(join(t, 'real', 'home', '.claude.json'));
      expect(resolveThroughExisting(join(t, 'link', 'home', 'no', 'such'))).toBe(join(t, 'real', 'home', 'no', 'such'));
      const plan: SandboxPlan = { worktree: join(t, 'w'), unreserved: [join(t, 'link', 'home', '.claude.json')], grants: [{ path: '/', access: 'rw', why: 'b' }] };
      const r = readRules(seatbeltEnforcementProfile(plan, { isDir: () => true, caseInsensitive: () => false }));
      expect(deniedOp(r, 'create', join(t, 'real', 'home', '.claude.json'))).toBe(true);
      expect(deniedOp(r, 'create', join(t, 'real', 'home', 'other'))).toBe(false);
    } finally {
      rmSync(t, { recursive: true, force: true });
    }
  });

  it('tells a case-sensitive volume from one that is not by looking the name up in the other case', () => {
    const t = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-sbcase-')));
    try {
      mkdirSync(join(t, 'Mixed'));
      // Linux's file systems here match case exactly; a Mac's APFS volume would answer true
      expect(caseInsensitiveVolume(join(t, 'Mixed', 'x'))).toBe(false);
    } finally {
      rmSync(t, { recursive: true, force: true });
    }
  });
});
