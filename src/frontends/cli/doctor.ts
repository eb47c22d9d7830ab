/**
 * `bashguard doctor` for Claude Code: node, both parsers, the grammar, a self-test, the settings
 * layers a session here reads, the enforcement and the hook's time limit (text, or JSON).
 */
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { IO } from '../io.js';
import { discoverLayout } from '../../policy/layout/discover.js';
import { getParser } from '../../engine/parse/index.js';
import { nativeLoadMethod, treeExportSkipped } from '../../engine/parse/native.js';
import { analyzeWith } from '../../engine/analyze.js';
import { evaluate } from '../../policy/policy.js';
import { memoryFs, standardEnv, standardPolicy, WORKTREE } from '../../policy/scenario/standard.js';
import { packagePath } from '../../util/package-root.js';
import { treeAddon } from '../../util/tree-addon.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import { claudeSettingsChecks, enforcementCheck, onPath, readSettings, removeHook, type Check } from './install.js';
import { join } from 'node:path';
import { classify, type Region } from '../../policy/regions.js';
import { nodeFs, resolvePhysical } from '../../policy/physical.js';

/** The write root that holds HOME (a scratch HOME under /tmp), or null: the one line then leaves HOME writable. */
function homeInWriteRoot(home: string | undefined, regions: Region[]): string | null {
  if (!home?.startsWith('/') || regions.length === 0) return null;
  const r = classify(resolvePhysical(home, nodeFs), regions);
  return r.kind === 'scratch' || r.kind === 'allowed' ? r.root : null;
}

/** Self-test cases against the standard scenario: each must get its expected decision. */
const SELF_TEST: [string, string][] = [
  ['echo x > /home/dev/repo/README.md', 'deny'],
  ['cd ../.. && git commit -am x', 'deny'],
  ['echo ok > notes.txt && git commit -am x', 'allow'],
  ['git -C /home/dev/repo log -1', 'allow'],
];

/** Every check, as lines (`ok`/`FAIL`) or one JSON document; exit 0 when all pass, else 1. */
export async function runDoctor(io: IO, json = false): Promise<number> {
  const checks: Check[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push({ ok: major >= 20, label: 'node', detail: `${process.version} (needs >= 20)` });
  for (const backend of ['native', 'wasm'] as const) {
    try {
      const p = await getParser(backend);
      const r = p.parse('echo ok > f');
      let detail = r.ok ? 'loads and parses' : r.message;
      if (r.ok && backend === 'native') {
        const skipped = treeExportSkipped();
        detail += nativeLoadMethod() === 'export' ? " (bashguard's tree export)" : ` (tree-sitter's binding; bashguard's faster tree export is not in use: ${skipped ?? 'unknown reason'})`;
      }
      checks.push({ ok: r.ok, label: `parser ${backend}`, detail });
    } catch (err) {
      checks.push({ ok: backend === 'wasm' ? false : true, label: `parser ${backend}`, detail: `${backend === 'native' ? 'not available, the WASM fallback will be used: ' : ''}${(err as Error).message.split('\n')[0]}` });
    }
  }
  try {
    const wasm = readFileSync(packagePath('grammars', 'tree-sitter-bash.wasm'));
    const sum = createHash('sha256').update(wasm).digest('hex');
    const readme = readFileSync(packagePath('grammars', 'README.md'), 'utf8');
    checks.push({ ok: readme.includes(sum), label: 'grammar checksum', detail: readme.includes(sum) ? sum : `${sum} is not the one recorded in grammars/README.md` });
  } catch (err) {
    checks.push({ ok: false, label: 'grammar checksum', detail: (err as Error).message });
  }
  try {
    const parser = await getParser();
    const fs = memoryFs();
    const failures = SELF_TEST.filter(([cmd, want]) => {
      const a = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(), host: fs });
      return evaluate(a.effects, standardPolicy(fs)!).decision !== want;
    });
    checks.push({ ok: failures.length === 0, label: 'self-test', detail: failures.length === 0 ? `${SELF_TEST.length} reference decisions match` : `wrong decision for: ${failures.map((f) => f[0]).join('; ')}` });
  } catch (err) {
    checks.push({ ok: false, label: 'self-test', detail: (err as Error).message });
  }
  checks.push(...claudeSettingsChecks(io));
  try {
    const ws = openWorkspace(io.cwd, { env: io.env });
    for (const n of ws.notices) if (!ws.ignoredConfigs.includes(n)) checks.push({ ok: true, label: 'config notice', detail: n });
    // A config the environment names in a place the agent can write: the hook ignores it, and
    // whoever set that variable (perhaps the agent, through a settings layer's `env`) must know.
    for (const n of ws.ignoredConfigs) checks.push({ ok: false, label: 'config', detail: n });
    checks.push(enforcementCheck(io, ws));
    const home = homeInWriteRoot(io.env.HOME, ws.regions);
    if (home) checks.push({ ok: true, label: 'HOME', detail: `warning: HOME (${io.env.HOME}) lies inside the write root ${home}: both lines leave it writable (~/.ssh, ~/.profile, ~/.local/bin); give the agent a HOME outside /tmp and the other write roots` });
  } catch (err) {
    checks.push({ ok: false, label: 'config', detail: (err as Error).message });
  }
  // bin/bashguard-hook's time limit (a run-away parse would otherwise outlast Claude Code's hook
  // timeout, which then runs the tool): the kernel's interval timer, armed by the hook through
  // bashguard's addon (src/util/time-limit.ts), else coreutils' timeout around it.
  const timeoutBin = onPath('timeout', io.env.PATH);
  let kernelLimit: string | null = null;
  try {
    if (typeof treeAddon().armTimeLimit === 'function') kernelLimit = "the kernel's interval timer (armed by bashguard's addon)";
  } catch {
    // no addon: timeout, or nothing
  }
  checks.push({
    ok: true,
    label: 'hook time limit',
    detail: kernelLimit
      ? `${kernelLimit} stops an analysis after BASHGUARD_HOOK_TIMEOUT s (default 10)`
      : timeoutBin
        ? `${timeoutBin} stops an analysis after BASHGUARD_HOOK_TIMEOUT s (default 10) (bashguard's addon is not built, so the hook cannot arm the limit itself)`
        : "warning: neither bashguard's addon nor `timeout` (coreutils) is available: the hook runs without an outer time limit",
  });
  let layout = 'not inside a git checkout: the hook stays out of the way here';
  const found = discoverLayout(io.cwd);
  if (found.ok) layout = `${found.layout.current.kind} at ${found.layout.current.root ?? found.layout.current.gitDir}${found.layout.current.kind === 'linked-worktree' ? ` (main checkout ${found.layout.main?.root ?? 'none'}, ${found.layout.siblings.length} sibling worktree(s))` : ''}`;
  const stray = found.ok ? null : strayProjectHook(io);
  checks.push(stray ? { ok: false, label: 'layout here', detail: `${layout}, yet ${stray} holds a bashguard hook: it guards nothing here (install it in the checkout, or \`bashguard install --user\`)` } : { ok: true, label: 'layout here', detail: layout });
  if (json) io.stdout(JSON.stringify({ ok: checks.every((c) => c.ok), checks }, null, 2) + '\n');
  else for (const c of checks) io.stdout(`${c.ok ? 'ok  ' : 'FAIL'} ${c.label.padEnd(18)} ${c.detail}\n`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

/** Outside any checkout: the project settings file here, when it holds a bashguard hook (an older install's), else null. */
function strayProjectHook(io: IO): string | null {
  const file = join(io.cwd, '.claude', 'settings.json');
  try {
    const settings = readSettings(file);
    return JSON.stringify(removeHook(settings)) === JSON.stringify(settings) ? null : file;
  } catch {
    return null; // unreadable or invalid: the settings checks say so
  }
}
