/** Environment variables as a command sees them (prefix assignments, exported shell variables). */
import type { Evidence } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import type { Invocation } from './context.js';

/**
 * The value of an environment variable as the command sees it: its own prefix assignment
 * (`TMPDIR=x cmd`, `env TMPDIR=x cmd`) or an exported shell variable.
 */
export function envOf(inv: Invocation, name: string): { value: string; confidence: Confidence; evidence: Evidence[]; fromEnvironment: boolean } | null {
  const own = inv.env.get(name);
  if (own) return { value: own.value, confidence: own.confidence, evidence: own.evidence, fromEnvironment: false };
  const v = inv.st.vars.get(name);
  if (v && (v.exported || v.fromEnvironment)) return { value: v.value, confidence: v.confidence, evidence: v.evidence, fromEnvironment: v.fromEnvironment };
  return null;
}
