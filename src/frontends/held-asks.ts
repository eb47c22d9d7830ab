/**
 * Decisions that know the kernel holds (issue 51 item 5): where the OS enforcement is in effect
 * for a call (the wrapper computed and checked for this workspace), an ask that exists only
 * because the analyzer cannot tell where a write lands (a tree writer near control files, an
 * unresolved write target, a possible write outside the worktree) runs under the kernel instead,
 * which keeps every write inside the write roots and the control files read-only. The asks that
 * stay are those no mechanism holds, and the reason says which. Certain findings are not
 * touched: they deny (or ask, as configured) early, with their explanation.
 */
import type { Finding } from '../policy/policy.js';
import type { SandboxPlan } from '../layers/sandbox/grants.js';
import type { HookAnswer } from './tool-call.js';
import { isInside } from '../engine/shell/paths.js';
import type { SharedGitWrite } from '../policy/shared-git.js';

/** File-write findings the kernel holds wherever its plan makes the path read-only. */
const WRITE_RULES = new Set(['BG1001', 'BG1002', 'BG1003', 'BG1004', 'BG1005', 'BG2001', 'BG2002', 'BG3001', 'BG3002']);
/**
 * What the analyzer cannot read: a write whose target is not known, and code it cannot read (a
 * parse error, dynamic code, a file sourced unread). Like an unknown program, which runs under the
 * kernel anyway, such code can write anywhere; held where every control path of the roots is held.
 * (What no mechanism holds, a loopback service or a new branch name, any unknown program can reach
 * as well: docs/limits.md.) Not a limit (BG0002): an input over one (10 MB) is not handed on.
 */
const UNREAD = new Set(['BG4001', 'BG0001', 'BG4002', 'BG4003']);

/**
 * Why no mechanism holds the finding, or null where the plan does. `covers`: the plan keeps the
 * path read-only. `mechanism`: the enforcement's (`bwrap` for bubblewrap's mounts, whoever makes
 * them); the plan's reservations of missing control paths (src/layers/sandbox/reserve.ts) are
 * mounts, so elsewhere (Landlock, Seatbelt) what only they hold stays asked, naming the path.
 */
export function unheld(f: Finding, plan: SandboxPlan, covers: (path: string) => boolean, mechanism = 'bwrap'): string | null {
  if (f.confidence === 'certain') return 'it is certain';
  if (f.elsewhere) return 'a daemon outside this call runs the code, and no sandbox of the call reaches it';
  // The worktree's own bashguard config can only tighten the trusted one (src/policy/workspace/config.ts
  // `tighten`; broken, it blocks every call): written, it opens nothing.
  const ownConfig = `${plan.worktree}/.bashguard.json`;
  // Control paths the mechanism leaves to the analyzer (Landlock's worktree granted whole).
  const left = (plan.unheld ?? []).filter((u) => u.path !== ownConfig);
  // The plan's reservations are mounts: held by bubblewrap's mounts only (whoever makes them).
  const reserved = mechanism === 'bwrap' ? [] : plan.grants.filter((g) => g.reserve && g.reserve !== 'between').map((g) => g.path);
  if (UNREAD.has(f.rule)) {
    const open = plan.unreserved.filter((u) => u !== ownConfig);
    const what = f.rule === 'BG4001' ? 'the write lands somewhere unknown' : 'bashguard cannot read what runs';
    if (open.length) return `${what}, and ${open[0]} (a control file that does not exist yet) cannot be held by the kernel`;
    if (left.length) return `${what}, and the kernel does not hold ${left[0]!.path} (${left[0]!.why})`;
    if (plan.openRefs) return `${what}, and ${plan.openRefs}`;
    return reserved.length ? `${what}, and ${reserved[0]} (a control path that does not exist yet) is reserved only under bubblewrap's mounts (here: ${mechanism})` : null;
  }
  if (!WRITE_RULES.has(f.rule)) return `no OS mechanism holds what ${f.rule} is about (${f.name})`;
  if (f.path === null) return 'its path is not known';
  if (f.path === ownConfig) return null;
  const path = f.path;
  const inReserved = reserved.find((r) => path === r || isInside(path, r));
  if (!inReserved && covers(path)) return null;
  const mine = left.find((u) => isInside(path, u.path));
  if (mine) return `the kernel leaves ${path} writable (${mine.why})`;
  if (inReserved) return `${path} lies in ${inReserved}, a control path that does not exist yet and is reserved only under bubblewrap's mounts (here: ${mechanism})`;
  if (left.length && path.startsWith(`${plan.worktree}/`)) return `the kernel leaves ${path} writable (the worktree is granted whole under this mechanism; the analyzer decides its control files)`;
  return `the kernel leaves ${path} writable (the plan does not hold it: a control file that does not exist yet where no mount can reserve it, through a symlink, beside another kind of file, or directly in a writable directory; or a path the plan keeps writable, such as /proc)`;
}

/**
 * The ask turned into the enforced allow where every finding that asks is held; else the ask,
 * saying what no mechanism holds. `enforced`: the allow the OS enforcement gives this call, with
 * its plan, or why there is none.
 */
export function heldAsk(ask: HookAnswer, enforced: { answer: HookAnswer; plan: SandboxPlan; covers: (path: string) => boolean } | { why: string }): HookAnswer {
  const asking = (ask.findings ?? []).filter((f) => f.decision === 'ask');
  if (asking.length === 0) return ask;
  if (!('plan' in enforced)) return { ...ask, reason: `${ask.reason}\n(the OS enforcement does not hold it here: ${enforced.why})` };
  for (const f of asking) {
    const why = unheld(f, enforced.plan, enforced.covers, enforced.answer.enforced?.mechanism);
    if (why) return { ...ask, reason: `${ask.reason}\n(asked although the OS enforcement is in effect: [${f.rule}] ${why})` };
  }
  const what = asking.map((f) => `[${f.rule} ${f.name}] ${f.message}`).join('; ');
  return { ...enforced.answer, reason: `bashguard cannot decide this command statically (${what}); it runs under the OS enforcement instead of asking. ${enforced.answer.reason}`, findings: ask.findings };
}

/**
 * Shared git state the call certainly writes (src/policy/shared-git.ts) that the plan holds:
 * git fails there as soon as it has anything to write, whatever the analyzer answered (each OS
 * says it its own way: "Read-only file system", "Operation not permitted"), so the call is denied
 * early, saying what to do instead. null where the plan holds none of it (the Landlock
 * plan keeps `refs/` writable; a new branch's reflog is writable where the own reflog is missing).
 */
export function heldSharedGit(shared: readonly SharedGitWrite[], covers: (path: string) => boolean, findings: Finding[] = []): HookAnswer | null {
  const lines: string[] = [];
  for (const w of shared) {
    const held = w.paths.find(covers);
    if (held === undefined) continue;
    lines.push(`- \`${w.text}\` writes ${w.what}, which every checkout of the repository shares; the OS enforcement keeps ${held} read-only for this worktree, so git fails there as soon as it has anything to write. Instead: ${w.instead}.`);
  }
  if (lines.length === 0) return null;
  return { decision: 'deny', reason: `bashguard blocked this command before it runs:\n${[...new Set(lines)].join('\n')}`, findings, kind: 'held-shared-git' };
}
