/**
 * System test (spawns the built CLI and busy loops): lint's result does not depend on the load.
 * The same tree is linted idle and on one core shared with two busy loops; the JSON is the same
 * (but for the run's own time), and a baseline written under load passes the unchanged tree
 * idle. The tree holds a file that runs into the step budget, so the budget's finding is
 * compared too. Needs dist/ (`node scripts/build.mjs`; `npm test` builds it first).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, REQUIRE_ALL, cannotRun } from '../../helpers/shared.js';
import { layoutBase } from '../../helpers/git-layout.js';

const CLI = join(REPO_ROOT, 'bin/bashguard.js');
const built = existsSync(join(REPO_ROOT, 'dist/bashguard.js'));
const taskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const skip = !built ? cannotRun('dist/ is not built (node scripts/build.mjs)') : null;
if (skip && REQUIRE_ALL) throw new Error(skip);

const TREE = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-load-')));
afterAll(() => rmSync(TREE, { recursive: true, force: true }));

function makeTree(): void {
  spawnSync('git', ['init', '-q', TREE]);
  mkdirSync(join(TREE, 'lib'), { recursive: true });
  // Work for the interpreter: functions calling functions in loops over known values.
  const fns = Array.from({ length: 12 }, (_, i) => `f${i}() {\n  for x in a b c d e f g h; do\n    ${i > 0 ? `f${i - 1} "$x"` : 'echo "$1"'}\n  done\n}`).join('\n');
  writeFileSync(join(TREE, 'heavy.sh'), `#!/bin/bash\ntouch /etc/heavy-before\n${fns}\nf11 start\ntouch /etc/heavy-after\n`);
  writeFileSync(join(TREE, 'lib/util.sh'), 'install_to() {\n  cp "$1" "/usr/local/bin/$2"\n}\nscratch() { mkdir -p "$HOME/.cache/tool"; }\n');
  writeFileSync(join(TREE, 'main.sh'), '#!/bin/bash\n. ./lib/util.sh\n[ -z "$1" ] && usage && exit\ninstall_to tool tool\nrm -rf /opt/x\n');
  for (let i = 0; i < 6; i++) writeFileSync(join(TREE, `s${i}.sh`), `#!/bin/bash\ncd "$(dirname "$0")"\nfor f in *.sh; do cp "$f" /opt/s${i}/; done\necho ok > ../out${i}.txt\n`);
}

function lint(args: string[], pinned: boolean): { code: number; out: string; err: string } {
  const argv = [CLI, 'lint', '--format', 'json', '--max-steps', '3000', '--cwd', 'script', ...args, '.'];
  const r = pinned ? spawnSync('taskset', ['-c', '0', process.execPath, ...argv], { cwd: TREE, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }) : spawnSync(process.execPath, argv, { cwd: TREE, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** The JSON without the run's own time. */
function stable(out: string): unknown {
  const j = JSON.parse(out) as { summary: Record<string, unknown> };
  delete j.summary.timeMs;
  return j;
}

function busyLoops(n: number): ChildProcess[] {
  const loop = [process.execPath, '-e', 'for(;;){}'];
  return Array.from({ length: n }, () => (taskset ? spawn('taskset', ['-c', '0', ...loop], { stdio: 'ignore' }) : spawn(loop[0]!, loop.slice(1), { stdio: 'ignore' })));
}

describe.skipIf(skip !== null)('lint under load gives what it gives idle', () => {
  it('the same JSON, and a baseline written under load passes idle', { timeout: 120_000 }, () => {
    makeTree();
    const idle = lint([], false);
    const loops = busyLoops(2);
    let loaded: ReturnType<typeof lint>;
    let baselineRun: ReturnType<typeof lint>;
    try {
      loaded = lint([], taskset);
      baselineRun = lint(['--baseline-write', join(TREE, 'baseline.json')], taskset);
    } finally {
      for (const l of loops) l.kill('SIGKILL');
    }
    expect(idle.out.length).toBeGreaterThan(0);
    expect(stable(loaded.out)).toEqual(stable(idle.out));
    expect(loaded.code).toBe(idle.code);
    // The tree is not trivially clean: writes in a sourced file, after a guard, and the budget hit.
    const findings = (JSON.parse(idle.out) as { files: { file: string; findings: { rule: string; message: string }[] }[] }).files.flatMap((f) => f.findings.map((x) => ({ ...x, file: f.file })));
    expect(findings.some((f) => f.file === 'lib/util.sh' && f.message.includes('/usr/local/bin/tool'))).toBe(true);
    expect(findings.some((f) => f.file === 'main.sh' && f.message.includes('/opt/x'))).toBe(true);
    expect(findings.some((f) => f.rule === 'BG0002' && f.message.includes('after 3000 steps'))).toBe(true);
    expect(baselineRun.code).toBe(0);
    const again = lint(['--baseline', join(TREE, 'baseline.json')], false);
    expect(again.code).toBe(0);
    expect((JSON.parse(again.out) as { files: { findings: unknown[] }[] }).files.flatMap((f) => f.findings)).toEqual([]);
  });
});
