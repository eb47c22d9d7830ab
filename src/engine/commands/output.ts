/**
 * What commands print, so `$(pwd)`, `$(mktemp -d)`, `$(dirname "$0")` and friends give a
 * usable value inside paths: each spec's `output` (specs/*.ts) says what its command prints; this
 * file keeps what several share. null means "prints something we cannot know".
 */
import type { CommandContext, Invocation } from './context.js';
import { joinPath, normalizeLogical } from '../shell/paths.js';

/** What `realpath` and `readlink` print. */
export function realpathOutput(inv: Invocation, interp: CommandContext): string | null {
  const vals = inv.args.map((a) => a.value);
  if (inv.name === 'readlink' && !vals.some((v) => /^-[a-z]*[fem]/.test(v) || v.startsWith('--canonicalize'))) return null;
  const ops = vals.filter((v) => !v.startsWith('-'));
  if (ops.length !== 1) return null;
  const p = ops[0]!;
  const cwd = interp.pwd(inv.st);
  if (!p.startsWith('/') && cwd === null) return null;
  const abs = normalizeLogical(joinPath(cwd ?? '/', p));
  return (interp.ctx.host?.realpath?.(abs) ?? abs) + '\n';
}
