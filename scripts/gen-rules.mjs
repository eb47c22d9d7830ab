// Generates src/policy/rules/catalog.generated.ts and docs/rules.md from rules/*.md.
// Run by `npm run build` (and so by `npm ci`); a test fails when either output is stale.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function parseRuleFile(text, file) {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: missing --- front matter ---`);
  const meta = {};
  for (const line of m[1].split('\n')) {
    const kv = /^(\w+):\s*(.*)$/.exec(line);
    if (!kv) throw new Error(`${file}: bad front matter line: ${line}`);
    meta[kv[1]] = kv[2].trim();
  }
  for (const k of ['id', 'name', 'severity', 'summary']) if (!meta[k]) throw new Error(`${file}: front matter needs ${k}`);
  if (!/^BG\d{4}$/.test(meta.id)) throw new Error(`${file}: id must look like BG1234`);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(meta.name)) throw new Error(`${file}: name must be kebab-case`);
  if (!['error', 'warning', 'info'].includes(meta.severity)) throw new Error(`${file}: severity must be error, warning or info`);
  const body = m[2].trim();
  const headings = [...body.matchAll(/^## (.+)$/gm)].map((h) => h[1]);
  const required = ['What it does', 'Why it matters', 'Example', 'How to fix'];
  if (JSON.stringify(headings) !== JSON.stringify(required)) throw new Error(`${file}: headings must be exactly: ${required.join(', ')} (found ${headings.join(', ')})`);
  const examples = [...body.matchAll(/```bash (bad|good)\n([\s\S]*?)```/g)].map((e) => ({ kind: e[1], code: e[2].replace(/\n$/, '') }));
  if (!examples.some((e) => e.kind === 'bad') || !examples.some((e) => e.kind === 'good')) throw new Error(`${file}: needs at least one \`\`\`bash bad and one \`\`\`bash good example`);
  return { id: meta.id, name: meta.name, severity: meta.severity, summary: meta.summary, docs: body, examples, file };
}

export function loadRules() {
  const dir = join(root, 'rules');
  const rules = readdirSync(dir).filter((f) => f.endsWith('.md')).sort().map((f) => {
    const r = parseRuleFile(readFileSync(join(dir, f), 'utf8'), `rules/${f}`);
    if (f !== `${r.id}-${r.name}.md`) throw new Error(`rules/${f}: file name must be ${r.id}-${r.name}.md`);
    return r;
  });
  const ids = new Set();
  for (const r of rules) {
    if (ids.has(r.id)) throw new Error(`duplicate rule id ${r.id}`);
    ids.add(r.id);
  }
  return rules;
}

export function renderCatalog(rules) {
  const data = rules.map(({ file: _f, ...r }) => r);
  return `// Generated from rules/*.md by scripts/gen-rules.mjs. Do not edit: edit the rule file and run \`npm run build\`.\n` +
    `export const RULE_DATA = ${JSON.stringify(data, null, 2)} as const;\n`;
}

export function renderDocs(rules) {
  const lines = ['# bashguard rules', '', '<!-- Generated from rules/*.md by scripts/gen-rules.mjs; do not edit. -->', '',
    'Ids are grouped by range: 0xxx analysis limits, 1xxx writes outside the worktree, 2xxx host-repository git, 3xxx shared git state, 4xxx dynamic or unanalyzable.',
    'Rule names and ids are accepted everywhere a rule is named (config, directives, CLI). Examples run against the standard layout in docs/conventions.md (cwd = the worktree `/home/dev/repo/.builders/b1`).', '',
    '| id | name | severity | summary |', '|---|---|---|---|'];
  for (const r of rules) lines.push(`| [${r.id}](#${r.id.toLowerCase()}-${r.name}) | ${r.name} | ${r.severity} | ${r.summary} |`);
  for (const r of rules) {
    lines.push('', `## ${r.id} ${r.name}`, '', `Severity: **${r.severity}**. ${r.summary}`, '', r.docs.replace(/^## /gm, '### ').replace(/```bash (bad|good)/g, '```bash\n# $1'));
  }
  return lines.join('\n') + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rules = loadRules();
  writeFileSync(join(root, 'src/policy/rules/catalog.generated.ts'), renderCatalog(rules));
  writeFileSync(join(root, 'docs/rules.md'), renderDocs(rules));
  console.log(`rules: ${rules.length} rule files -> src/policy/rules/catalog.generated.ts, docs/rules.md`);
}
