/**
 * `bashguard prompt`: the guidance layer (seeds 000 and 004). The rules text an orchestrator puts
 * in a builder's prompt or role doc for one worktree: its root; that a byte-identical main checkout
 * exists at <path>, so wrong-rooted reads succeed silently; that Write/Edit paths must be rooted at
 * the worktree; that Bash should use paths relative to it; and what bashguard blocks.
 *
 * The rule lines come from the rule catalog (rules/*.md, compiled into src/policy/rules/catalog.ts), the
 * same source as the hook's reasons and docs/rules.md: each rule's summary and the first sentence
 * of its "How to fix", with the example paths of the standard scenario (which the rule texts are
 * written against) replaced by this workspace's. Rules the configuration turns off or down to
 * `info` never block, so they are left out.
 */
import type { Workspace } from '../../policy/workspace/index.js';
import { RULES, type RuleId } from '../../policy/rules/catalog.js';
import { decide } from '../../policy/policy.js';
import { COMMON, MAIN, SIBLING, WORKTREE } from '../../policy/scenario/standard.js';
import { LayerError } from '../env/env.js';

export interface PromptRule {
  id: RuleId;
  name: string;
  summary: string;
  fix: string;
}

export interface PromptGuidance {
  worktree: string;
  branch: string | null;
  /** The main checkout, when the worktree is a linked one. */
  main: string | null;
  siblings: string[];
  /** Writable besides the worktree: scratch dirs and configured write roots. */
  writable: string[];
  rules: PromptRule[];
  text: string;
}

/** The rules an agent can trip over: writes, git, dynamic code, and what cannot be analyzed. */
const AGENT_FACING = /^BG(000[12]|[1-4]\d{3})$/;

export function promptGuidance(ws: Workspace): PromptGuidance {
  const l = ws.layout;
  if (!l || !l.current.root) throw new LayerError(`${ws.cwd} is not inside a git checkout with a work tree (${ws.skipped ?? 'no layout'})`);
  const root = l.current.root;
  const main = l.main?.root && l.main.root !== root ? l.main.root : null;
  const siblings = l.siblings.map((s) => s.root).filter((r): r is string => !!r && r !== root);
  const branch = l.current.kind === 'linked-worktree' ? branchOf(ws) : null;
  const writable = ws.regions.filter((r) => (r.kind === 'scratch' || r.kind === 'allowed') && ws.host.realpath?.(r.root) != null).map((r) => r.root);
  const here = (text: string) => localize(text, { root, main: main ?? root, common: l.current.commonDir, sibling: siblings[0] ?? null });
  const rules: PromptRule[] = [];
  for (const r of RULES) {
    if (!AGENT_FACING.test(r.id)) continue;
    const severity = ws.config.rules[r.id] ?? r.severity;
    if (severity === 'off') continue;
    // A rule whose findings are allowed at every confidence never stops anything.
    if ((['certain', 'likely', 'possible'] as const).every((c) => decide(r.id, severity, c, ws.config) === 'allow')) continue;
    rules.push({ id: r.id, name: r.name, summary: here(r.summary), fix: here(firstSentence(section(r.docs, 'How to fix'))) });
  }
  const lines: string[] = [];
  lines.push('## Worktree rules (enforced by bashguard)', '');
  lines.push(`You work in the git worktree ${root}${branch ? `, on branch ${branch}` : ''}. It is your git root and your working directory: write only inside it.`, '');
  if (main) {
    lines.push(`- A byte-identical main checkout exists at ${main}. A path anchored there (${main}/README.md instead of ${root}/README.md) reads the same bytes, so a wrong-rooted read succeeds silently and hides the mistake until a write lands in the main checkout. Use no path under ${main}/ that is not under ${root}/.`);
  }
  if (siblings.length) lines.push(`- Other worktrees of this repository belong to other agents; do not write there: ${siblings.join(', ')}.`);
  lines.push(`- Write, Edit, MultiEdit and NotebookEdit: every absolute path must start with ${root}/.`);
  lines.push('- Bash: use paths relative to the worktree (a relative path cannot be anchored at the wrong root). Do not `cd` to an absolute path outside the worktree or up out of it (`cd ../..`), and do not point git at another checkout (`-C`, `--git-dir`, `--work-tree`).');
  lines.push(`- Commit only on this worktree's branch${branch ? ` (${branch})` : ''}; leave other branches, tags, the shared git config and hooks, and worktree management to people.`);
  if (writable.length) lines.push(`- Scratch files: ${writable.join(', ')}.`);
  lines.push('', 'Every Bash command and file edit is checked before it runs. bashguard blocks it (or, when it cannot be sure, asks a person) when:');
  for (const r of rules) lines.push(`- ${r.id} ${r.name}: ${r.summary} Fix: ${r.fix}`);
  lines.push('', 'A stopped call does not run; its reason names the rule and how to fix the call.');
  if (ws.config.unanalyzable === 'sandbox' || Object.values(ws.config.decisions).includes('sandbox')) {
    lines.push(`A command bashguard cannot read statically runs in a sandbox instead, where only ${root}, the scratch dirs and git's own files for this worktree are writable: a write elsewhere fails with "Read-only file system".`);
  }
  return { worktree: root, branch, main, siblings, writable, rules, text: lines.join('\n') + '\n' };
}

function branchOf(ws: Workspace): string | null {
  try {
    // The layout does not carry HEAD; read it from the worktree's admin dir.
    const head = ws.host.readFile?.(`${ws.layout!.current.gitDir}/HEAD`)?.trim();
    return head?.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : null;
  } catch {
    return null;
  }
}

/** The text of a `## title` section of a rule's docs, as one line. */
function section(docs: string, title: string): string {
  const m = new RegExp(`^## ${title}\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(docs);
  return (m?.[1] ?? '').replace(/\s+/g, ' ').trim();
}

function firstSentence(text: string): string {
  const m = /^(.+?[.!?])(?=\s|$)/.exec(text);
  return m ? m[1]! : text;
}

/** Replaces the standard scenario's example paths (what rule texts use) with this workspace's. */
export function localize(text: string, p: { root: string; main: string; common: string; sibling: string | null }): string {
  const pairs: [string, string][] = [[WORKTREE, p.root], [COMMON, `${p.common}`], [MAIN, p.main]];
  if (p.sibling) pairs.splice(1, 0, [SIBLING, p.sibling]);
  let out = text;
  // Longest first, so the worktree (inside the main checkout) is replaced before its parent.
  for (const [from, to] of pairs.sort((a, b) => b[0].length - a[0].length)) out = out.split(from).join(to);
  return out;
}

export type PromptFormat = 'text' | 'json';

export function formatPrompt(g: PromptGuidance, format: PromptFormat): string {
  return format === 'json' ? JSON.stringify(g, null, 2) + '\n' : g.text;
}
