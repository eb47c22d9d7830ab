/**
 * The rule catalog: metadata kept apart from behaviour (as ESLint's `meta`). The source of truth is
 * one Markdown file per rule in rules/; scripts/gen-rules.mjs compiles them into
 * catalog.generated.ts so the hook needs no file reads at start-up.
 */
import { RULE_DATA } from './catalog.generated.js';

export type Severity = 'error' | 'warning' | 'info';
export type RuleId = (typeof RULE_DATA)[number]['id'];

export interface RuleMeta {
  id: RuleId;
  name: string;
  severity: Severity;
  summary: string;
  docs: string;
  examples: readonly { kind: 'bad' | 'good'; code: string }[];
}

export const RULES: readonly RuleMeta[] = RULE_DATA as unknown as readonly RuleMeta[];

const byId = new Map<string, RuleMeta>(RULES.map((r) => [r.id, r]));
const byName = new Map<string, RuleMeta>(RULES.map((r) => [r.name, r]));

export function ruleById(id: RuleId): RuleMeta {
  return byId.get(id)!;
}

/** Accepts an id (`BG1002`, case-insensitive) or a name (`write-to-main-checkout`). */
export function resolveRuleRef(ref: string): RuleId | null {
  const r = byId.get(ref.toUpperCase()) ?? byName.get(ref);
  return r ? r.id : null;
}
