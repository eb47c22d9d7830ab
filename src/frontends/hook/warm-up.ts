/**
 * The code cache's training run. The hook's V8 code cache (src/runtime/startup/code-cache.ts) holds the
 * bytecode of the functions that had run when it was written, and it is written once, by the
 * first hook process on a machine and Node. Whatever that first call did not need (the git
 * handlers after an Edit, the deny path after an allow ...) was compiled again from source by
 * every later process: ~6-7 M instructions, 1.5-2 ms, on the path the first call missed
 * (docs/history/performance.md). So the process that is about to write the cache first decides a fixed set
 * of typical calls, after its own answer is out: the cache then covers the common paths whichever
 * call came first.
 *
 * The calls are decided like real ones, in the session's own workspace (real file system, real
 * configuration), but nothing is written: no answer, no decision log, no stderr. A problem in
 * here never reaches the answer, which is already written.
 */
import type { IO } from '../io.js';
import type { BashParser } from '../../engine/parse/index.js';
import { decideCall, sessionWorkspace } from '../decide.js';
import { smallCache, CODE_CACHE_WARM_UP as WARM_UP } from '../../runtime/index.js';
export { WARM_UP };
import type { HookAnswer, ToolCall } from './types.js';


/**
 * Typical agent commands: each handler family the table has for everyday work (git, package
 * managers, file tools, redirections, cd and subshells, loops, heredocs, inline code), inside the
 * worktree and out of it, so both the allow and the finding paths run.
 */
export const WARM_UP_COMMANDS: readonly string[] = [
  'git status --short && npm run build 2>&1 | tail -5',
  'cd .. && echo "$PWD" > notes.md',
];

/** A file-tool call inside the worktree. */
const WARM_UP_WRITES: readonly string[][] = [['src/example.ts']];

/** Decides the warm-up calls from `cwd` (the session's directory); never throws, writes nothing. */
export async function warmUp(io: IO, cwd: string | null, getParser: () => Promise<BashParser>, render: (answer: HookAnswer | null) => unknown): Promise<void> {
  const ctx = { stderr: () => {}, env: io.env, cwd: io.cwd, getParser };
  const calls: ToolCall[] = [
    ...WARM_UP_COMMANDS.map((command): ToolCall => ({ kind: 'bash', tool: 'Bash', command, cwd })),
    ...WARM_UP_WRITES.map((paths): ToolCall => ({ kind: 'write', tool: 'Edit', paths, cwd })),
  ];
  for (const call of calls) {
    try {
      render(await decideCall(call, ctx));
    } catch {
      // a training run only
    }
  }
  if (cwd) await warmEnforcement(io.env, cwd);
}

/**
 * The OS enforcement of an allowed Bash call (src/layers/sandbox/enforce.ts), for each mechanism
 * this platform has whatever the configuration picks, so a later process finds its plan and rules
 * code compiled. Nothing is written: no reservation, the kept plan and rules read and not written.
 */
async function warmEnforcement(env: IO['env'], cwd: string): Promise<void> {
  try {
    const { enforceCall } = await import('../../layers/sandbox/enforce.js');
    const ws = sessionWorkspace(cwd, env);
    if (!ws.root) return;
    const store = smallCache(env);
    const readOnly = store ? { read: (name: string) => store.read(name), write: () => {} } : undefined;
    for (const mode of process.platform === 'darwin' ? (['seatbelt'] as const) : (['auto', 'landlock'] as const)) enforceCall(ws, 'true', mode, env, undefined, readOnly, { reserve: false });
  } catch {
    // a training run only
  }
}
