/**
 * Where bashguard keeps its state (the decision log, src/layers/log/decisions.ts), as a function of the
 * environment alone: the workspace protects the directory (BG1005) so the agent cannot erase what
 * it tried, without loading the log's code.
 */
import { normalizeLogical } from '../../engine/shell/paths.js';
import { under } from '../../util/under.js';

type Env = Record<string, string | undefined>;

/** The state directory holding the log, or null when neither XDG_STATE_HOME nor HOME is set. */
export function decisionLogDir(env: Env): string | null {
  // Concatenation, not path.join: this runs in every hook process (see src/util/under.ts).
  const base = env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/') ? normalizeLogical(env.XDG_STATE_HOME) : env.HOME?.startsWith('/') ? under(normalizeLogical(env.HOME), '.local', 'state') : null;
  return base ? under(base, 'bashguard') : null;
}
