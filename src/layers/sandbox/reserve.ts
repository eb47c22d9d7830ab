/**
 * Reservations that leave no trace (issue 51 item 3): what a call makes for the plan's missing
 * control paths (an empty directory for a read-only tmpfs, ./grants.ts `reserve`) is recorded in a
 * registry of the user's and removed after the call by the sweeper of native/reserve-core.h, which
 * the builtin and the helper start. This file holds the hook's side: the registry (in bashguard's cache directory), what it
 * records, the helper's `--reserve` text for bubblewrap's path, and the hook-made reservations
 * where no program of bashguard's can make them.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { cacheDir, dirIsPrivate, prepareDir } from '../../runtime/index.js';
import type { Grant, SandboxPlan } from './grants.js';

/**
 * Where the wrapper records what it makes for the plan's reservations (native/reserve-core.h):
 * `reserved/` in bashguard's private cache directory, which every plan keeps read-only (a record
 * planted by the command would have the sweeper remove an empty directory of its choosing);
 * null where there is none (BASHGUARD_CODE_CACHE=0, no HOME): then the hook makes the
 * reservations and they stay.
 */
export function reservationRegistry(env: Record<string, string | undefined>): string | null {
  const dir = cacheDir(env);
  if (!dir || !prepareDir(dir)) return null;
  const reg = `${dir}/reserved`;
  return prepareDir(reg) && dirIsPrivate(reg) ? reg : null;
}

/**
 * Makes the plan's reservations real from the hook, where no program of bashguard's makes them in
 * the call (bubblewrap without the helper): each missing reserved path is created now (an empty
 * file where empty means absent, an empty directory, the directories on the way to one) and from
 * then on bound like any other control path. Each one made is recorded in `registry`, and the
 * sweeper of a later call that has the helper removes it when no sandbox relies on it any more
 * (native/reserve-core.h); without a registry it stays. A path that cannot be created is left out,
 * and listed in `unreserved`.
 */
export function materializeReservations(plan: SandboxPlan, registry: string | null = null): SandboxPlan {
  if (!plan.grants.some((g) => g.reserve)) return plan;
  const grants: Grant[] = [];
  const unreserved = [...plan.unreserved];
  // (the native sweeper's format, native/reserve-core.h `record`; no parent mtimes: none is put back)
  const records: string[] = [];
  for (const g of plan.grants) {
    if (!g.reserve) {
      grants.push(g);
      continue;
    }
    let made = false;
    try {
      if (g.reserve === 'file') closeSync(openSync(g.path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644));
      else mkdirSync(g.path, { mode: 0o755 });
      made = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        unreserved.push(g.path);
        continue;
      }
    }
    const st = lstatSync(g.path, { throwIfNoEntry: false, bigint: true });
    if (!st || st.isSymbolicLink() || (g.reserve === 'file' ? !st.isFile() : !st.isDirectory())) {
      unreserved.push(g.path);
      continue;
    }
    if (made && registry) records.push(`${g.reserve === 'file' ? 'n' : g.reserve === 'between' ? 'm' : 't'}${g.path}\t${st.dev.toString(16)} ${st.ino.toString(16)} -1 0 -1 0 ${BigInt(Date.now()) * 1000000n + BigInt(records.length)}\n`);
    const { reserve: _r, ...rest } = g;
    grants.push(g.reserve === 'between' ? rest : { ...rest, access: 'ro', why: g.why.replace(/^reserves /, 'reserved: ') });
  }
  if (records.length && registry) {
    try {
      writeFileSync(`${registry}/c-${process.pid}-${Date.now()}000000`, records.join(''), { flag: 'wx', mode: 0o600 });
    } catch {
      // (not recorded: they stay)
    }
  }
  return { ...plan, grants, unreserved };
}

/** The paths the registry's records name (what calls made for their reservations and no sweep has removed yet). */
export function recordedReservations(registry: string): string[] {
  let names: string[];
  try {
    names = readdirSync(registry);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const n of names) {
    if (!n.startsWith('c-')) continue;
    const r = readRegularFile(`${registry}/${n}`, { maxBytes: 65536 });
    if (!r.ok) continue;
    for (const line of r.text.split('\n')) {
      const tab = line.lastIndexOf('\t');
      if (tab > 1 && /^[tnm]\//.test(line)) out.push(line.slice(1, tab));
    }
  }
  return [...new Set(out)].sort();
}

/** The reservation lines of the plan's mounts text, with the registry's, for the helper's `--reserve` (bubblewrap's path). */
export function reserveText(plan: SandboxPlan, registry: string): string | null {
  const lines = [`R${registry}`];
  for (const g of plan.grants) if (g.reserve) lines.push(`${g.reserve === 'file' ? 'n' : g.reserve === 'between' ? 'm' : 't'}${g.path}`);
  return lines.some((l) => l.includes('\n')) ? null : lines.join('\n');
}

/** The descriptor bubblewrap's path holds the reservations' lock on (native/reserve-core.h), closed by the inner shell. */
export const RESERVE_LOCK_FD = 6;
