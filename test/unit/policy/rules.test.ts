/**
 * Rule docs are executable: every ```bash bad example in rules/*.md must produce a finding of its
 * rule, every ```bash good example none of it (and be allowed); docs/rules.md and the generated
 * catalog must be what scripts/gen-rules.mjs renders now; ids and names resolve everywhere.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module without types
import { loadRules, renderCatalog, renderDocs } from '../../../scripts/gen-rules.mjs';
import { getParser, runScenario } from '../../helpers/scenario.js';
import { RULES, resolveRuleRef } from '../../../src/policy/rules/catalog.js';
import { describeFindings } from '../../../src/frontends/corpus/run.js';
import { parseDirectives, suppress } from '../../../src/frontends/lint/directives.js';
import type { Finding } from '../../../src/policy/policy.js';

interface RuleFile {
  id: string;
  name: string;
  severity: string;
  examples: { kind: 'bad' | 'good'; code: string }[];
}

const ROOT = join(import.meta.dirname, '..', '..', '..');
const rules = loadRules() as RuleFile[];
const parser = await getParser();

/**
 * Runs an example as the hook would; examples with `# bashguard disable` directives as lint would
 * (suppressed findings dropped; BG0003 for unknown or malformed directives, BG0004 for unused ones).
 */
function runExample(code: string): { rules: Set<string>; decision: string; findings: Finding[] } {
  const { verdict } = runScenario(parser, code);
  // BG0005 is lint's: the regions a lint analysis of the example finds unreachable.
  const unreachable = runScenario(parser, code, { lint: true }).analysis.unreachable ?? [];
  if (!/#\s*bashguard\s/i.test(code)) return { rules: new Set([...verdict.findings.map((f) => f.rule), ...(unreachable.length > 0 ? ['BG0005'] : [])]), decision: verdict.decision, findings: verdict.findings };
  const { directives, problems } = parseDirectives(code);
  const kept = verdict.findings.filter((f) => !suppress(directives, f.rule, f.range.line));
  const rules = new Set<string>(kept.map((f) => f.rule));
  const all = directives.flatMap((d) => d.rules);
  if (problems.length > 0 || all.some((r) => r.id === null)) rules.add('BG0003');
  if (all.some((r) => r.id !== null && !r.used)) rules.add('BG0004');
  const decision = kept.some((f) => f.decision === 'deny') ? 'deny' : kept.some((f) => f.decision === 'ask') || rules.has('BG0003') || rules.has('BG0004') ? 'ask' : 'allow';
  return { rules, decision, findings: kept };
}

describe('rule examples', () => {
  for (const r of rules) {
    r.examples.forEach((ex, i) => {
      it(`${r.id} ${r.name} ${ex.kind} example ${i + 1}: ${ex.code.split('\n')[0]}`, () => {
        const got = runExample(ex.code);
        const shown = `decision ${got.decision}, rules [${[...got.rules].join(', ')}]\n${describeFindings(got.findings)}`;
        if (ex.kind === 'bad') {
          if (!got.rules.has(r.id)) expect.fail(`expected a ${r.id} finding; got ${shown}`);
          if (r.severity !== 'info') expect(got.decision, shown).not.toBe('allow');
        } else {
          if (got.rules.has(r.id)) expect.fail(`expected no ${r.id} finding; got ${shown}`);
          expect(got.decision, shown).toBe('allow');
        }
      });
    });
  }
});

describe('generated rule outputs are up to date', () => {
  it('src/policy/rules/catalog.generated.ts matches rules/*.md (run `node scripts/gen-rules.mjs`)', () => {
    expect(readFileSync(join(ROOT, 'src/policy/rules/catalog.generated.ts'), 'utf8')).toBe(renderCatalog(rules));
  });
  it('docs/rules.md matches rules/*.md (run `node scripts/gen-rules.mjs`)', () => {
    expect(readFileSync(join(ROOT, 'docs/rules.md'), 'utf8')).toBe(renderDocs(rules));
  });
  it('the loaded catalog has every rule file', () => {
    expect(RULES.map((r) => r.id)).toEqual(rules.map((r) => r.id));
  });
});

describe('rule references', () => {
  for (const r of rules) {
    it(`${r.id} resolves by id, lower-case id and name`, () => {
      expect(resolveRuleRef(r.id)).toBe(r.id);
      expect(resolveRuleRef(r.id.toLowerCase())).toBe(r.id);
      expect(resolveRuleRef(r.name)).toBe(r.id);
    });
  }
  it('rejects unknown references', () => {
    expect(resolveRuleRef('BG9999')).toBeNull();
    expect(resolveRuleRef('no-such-rule')).toBeNull();
    expect(resolveRuleRef('')).toBeNull();
  });
  it('ids sit in their documented ranges', () => {
    for (const r of rules) expect(r.id, r.name).toMatch(/^BG[0-4]\d{3}$/);
  });
});
