/**
 * The line Landlock holds in the worktree (issue 51 item 1: ordinary work must run). Landlock
 * can only grant, and a grant covers everything beneath it, so a worktree that holds a read-only
 * path cannot be granted whole: each of its entries is granted instead, and no new top-level
 * entry can be made (`npm install` without `node_modules/`, `echo > notes.md`, `mkdir dist`,
 * `sed -i README.md`). No set of Landlock rules can express "the worktree, less its `.git` file":
 * writing a file needs WRITE_FILE on it or an ancestor, and a new file has no rule of its own.
 *
 * So there are two lines, which the trusted config chooses (`landlockWorktree`): `held` (the
 * default), the plan as it is; and `whole`, where the worktree is granted whole and the control
 * files inside it that the analyzer protects (BG1005: the `.git` file, `.claude/`, `.bashguard.json`, ...) are left to the
 * analyzer: they leave the plan's read-only grants and go to its `unheld` list, with why. The
 * decisions then know the kernel does not hold them (src/frontends/held-asks.ts: their asks stay
 * asks, an unresolved write stays an ask), and `doctor` and each reason say so. Everything else
 * the plan keeps read-only inside the worktree (another checkout nested in it, the installed
 * bashguard package, the node or shell the wrapper runs) stays read-only, and with it the
 * entry-by-entry grant of the directories around it. The cost of `whole`: a program the analyzer
 * allows without reading it (`make`, `npm install`'s scripts, `python3 script.py`) can write the
 * worktree's `.claude/settings.local.json` or its `.git` file, as with no enforcement at all.
 */
import { dirname } from 'node:path';
import type { Workspace } from '../../policy/workspace/index.js';
import { isInside } from '../../engine/shell/paths.js';
import { physicalPath } from '../../util/physical-path.js';
import type { Grant, SandboxPlan } from './grants.js';

/** Why a control path is not held under Landlock (said by `doctor` and by the asks it leaves). */
export const LANDLOCK_UNHELD_WHY = 'under Landlock the worktree is granted whole so that new entries can be made in it; the analyzer decides writes to it';

/** A path through the real path of its nearest existing ancestor (the plan's paths are physical). */
function physical(p: string): string {
  for (let d = p, rest = ''; ; rest = `/${d.slice(d.lastIndexOf('/') + 1)}${rest}`, d = dirname(d)) {
    const r = physicalPath(d);
    if (r !== null) return `${r === '/' ? '' : r}${rest}` || '/';
    if (d === '/') return p;
  }
}

/**
 * The plan Landlock enforces for `ws`: `plan` less the worktree's own control files (see the file
 * comment), which are listed in `unheld`. The worktree then holds no read-only path unless
 * something other than a control file of the analyzer's is kept read-only inside it.
 */
export function landlockLine(plan: SandboxPlan, ws: Workspace): SandboxPlan {
  const w = plan.worktree;
  const inW = (p: string) => p !== w && isInside(p, w);
  // The analyzer's protected paths inside the worktree, physical (the plan's are).
  const control = new Set<string>();
  for (const r of ws.regions) if (r.kind === 'protected') for (const p of [r.root, physical(r.root)]) if (inW(p)) control.add(p);
  if (control.size === 0) return plan;
  const unheld: { path: string; why: string }[] = [];
  // (a directory kept read-only only because it stands for a missing control path in it goes too)
  const given = (g: Grant) => g.access === 'ro' && !g.pin && inW(g.path) && (control.has(g.path) || (g.holds !== undefined && (control.has(g.holds) || control.has(physical(g.holds)))));
  let grants = plan.grants.filter((g) => {
    if (!given(g)) return true;
    unheld.push({ path: g.path, why: `${g.why}; ${LANDLOCK_UNHELD_WHY}` });
    return false;
  });
  const unreserved = plan.unreserved.filter((u) => {
    if (!inW(u) || !control.has(u)) return true;
    unheld.push({ path: u, why: `a control file that does not exist yet; ${LANDLOCK_UNHELD_WHY}` });
    return false;
  });
  if (unheld.length === 0) return plan;
  // (a pin that holds no read-only path any more has no reason to be)
  grants = grants.filter((g) => !g.pin || grants.some((x) => x.access === 'ro' && !x.pin && isInside(x.path, g.path) && x.path !== g.path));
  return { ...plan, grants, unreserved, unheld: [...(plan.unheld ?? []), ...unheld] };
}

/** The line in force, as `doctor` says it. */
export function landlockLineSaid(plan: SandboxPlan): string {
  const unheld = plan.unheld ?? [];
  if (unheld.length === 0) return 'less the control files inside them; new entries beside a protected path are refused, at the top of the worktree too (`"landlockWorktree": "whole"` in the trusted config allows them there and leaves the worktree\'s own control files to the analyzer)';
  return `the worktree whole, new top-level entries included: its own control files are the analyzer's to decide, not the kernel's (${unheld.map((u) => u.path).join(', ')}); elsewhere less the control files, and new entries beside a protected path are refused`;
}
