/**
 * The library API (src/api.ts, src/frontends/library/guard.ts): the README's example run for real against
 * the built package, the time limit on a parse that runs away in native tree-sitter, no hole
 * marker in returned paths, explicit env, no side effects on import, and the shipped type
 * declarations compiled by a strict TypeScript consumer.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashguardHook, BashguardWorktreeError, createGuard, type Guard } from '../../../src/api.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { REPO_ROOT } from '../../helpers/shared.js';

let layout: GitLayout;
let home: string;
let consumer: string;
beforeAll(() => {
  layout = makeGitLayout('bashguard-lib-');
  home = join(layout.root, 'home');
  mkdirSync(home);
  // A consumer project that depends on this package as `bashguard`.
  consumer = mkdtempSync(join(tmpdir(), 'bashguard-consumer-'));
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(REPO_ROOT, join(consumer, 'node_modules', 'bashguard'));
  writeFileSync(join(consumer, 'package.json'), '{"type":"module","private":true}');
});
afterAll(() => {
  layout?.cleanup();
  rmSync(consumer, { recursive: true, force: true });
});

function readmeBlock(heading: string, lang: string): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section);
  if (!m) throw new Error(`no ${lang} block after ${heading}`);
  return m[1]!;
}

// The README's Library API example itself runs in test/system/cli/doc-blocks.test.ts (as written).

describe('createGuard', () => {
  let guard: Guard;
  beforeAll(() => {
    guard = createGuard({ worktree: layout.worktree, env: { HOME: home }, timeoutMs: 3000 });
  });
  afterAll(() => guard.close());

  it('decides like the hook: deny, ask, allow, with rule, confidence, path and evidence', async () => {
    const deny = await guard.checkBash(`echo x > ${layout.main}/README.md`);
    expect(deny.decision).toBe('deny');
    expect(deny.findings[0]).toMatchObject({ rule: 'BG1002', confidence: 'certain', path: `${layout.main}/README.md` });
    expect(deny.reason).toMatch(/Fix:/);
    const ask = await guard.checkBash('echo x > "$UNSET_DIR/f"');
    expect(ask.decision).toBe('ask');
    expect(ask.findings[0]!.evidence.some((e) => /not set/.test(e.note))).toBe(true);
    expect(await guard.checkBash('echo x > notes.txt')).toEqual({ decision: 'allow', reason: '', findings: [] });
    expect((await guard.checkBash('echo x > README.md', { cwd: layout.main })).decision).toBe('deny');
  });

  it('no internal hole marker (U+0000) in returned paths, messages, evidence or reasons', async () => {
    for (const cmd of ['cd "$X" && echo x > f', 'echo x > "$Y/f"', 'git -C "$R" commit -m x', 'cp a "$D"/']) {
      const r = await guard.checkBash(cmd);
      expect(r.decision, cmd).not.toBe('allow');
      expect(JSON.stringify(r), cmd).not.toContain('\\u0000');
    }
    const r = await guard.checkBash('echo x > "$Z/f"');
    expect(r.findings.some((f) => (f.path ?? f.message).includes('…'))).toBe(true);
  });

  it('checkPath and checkToolUse: file tools, protocol drift, tools out of scope', async () => {
    expect(guard.checkPath('Edit', '../../README.md').decision).toBe('deny');
    expect(guard.checkPath('Write', 'src/new.ts').decision).toBe('allow');
    expect((await guard.checkToolUse('MultiEdit', { file_path: `${layout.main}/README.md`, edits: [] })).decision).toBe('deny');
    expect((await guard.checkToolUse('Bash', { command: 'cd ../.. && touch x' })).decision).toBe('deny');
    expect((await guard.checkToolUse('Bash', { cmd: 'ls' })).decision).toBe('deny');
    expect((await guard.checkToolUse('Read', { file_path: `${layout.main}/README.md` })).decision).toBe('allow');
  });

  it('a parse that runs away inside native tree-sitter: answered (ask) at the limit, the caller never stuck; the next call works', async () => {
    const hang = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8');
    const t0 = performance.now();
    const r = await guard.checkBash(hang);
    const ms = performance.now() - t0;
    expect(r.decision).toBe('ask');
    expect(r.reason).toMatch(/did not finish within 3 s/);
    expect(ms).toBeLessThan(3000 + 5000);
    // The event loop kept running meanwhile (timers fire): the analysis ran in another process.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 50);
    await guard.checkBash(hang);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(20);
    expect((await guard.checkBash(`echo x > ${layout.main}/README.md`)).decision).toBe('deny');
  }, 30_000);

  it('"unanalyzable": "deny" in the trusted config turns the time-limit answer into deny', async () => {
    const cfg = join(layout.main, '.bashguard.json');
    writeFileSync(cfg, '{"unanalyzable": "deny"}');
    const g = createGuard({ worktree: layout.worktree, env: { HOME: home }, timeoutMs: 1000 });
    try {
      expect((await g.checkBash(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'parser-hang.sh.txt'), 'utf8'))).decision).toBe('deny');
    } finally {
      g.close();
      rmSync(cfg);
    }
  }, 30_000);

  it('isolation "none" decides the same in-process', async () => {
    const g = createGuard({ worktree: layout.worktree, env: { HOME: home }, isolation: 'none' });
    const a = await g.checkBash(`cd ../.. && echo x > README.md`);
    const b = await guard.checkBash(`cd ../.. && echo x > README.md`);
    expect(a).toEqual(b);
  });

  it('env is explicit: required, and HOME comes from it, not from process.env', async () => {
    expect(() => createGuard({ worktree: layout.worktree } as never)).toThrow(/`env` is required/);
    const g = createGuard({ worktree: layout.worktree, env: { HOME: layout.main } });
    try {
      expect((await g.checkBash('echo x > ~/README.md')).decision).toBe('deny');
      expect((await guard.checkBash('echo x > ~/README.md')).decision).toBe('deny'); // home is outside too
      expect((await guard.checkBash('echo x > ~/README.md')).findings[0]!.path).toBe(`${home}/README.md`);
    } finally {
      g.close();
    }
  });

  it('in the main checkout (a plain checkout): not enforcing, says why', async () => {
    const g = createGuard({ worktree: layout.main, env: { HOME: home } });
    expect(g.skipped).toMatch(/plain checkout/);
    g.close();
  });
});

describe('a bad worktree is refused with a BashguardWorktreeError naming the path and why', () => {
  const refused = (worktree: string): BashguardWorktreeError => {
    try {
      createGuard({ worktree, env: { HOME: home } }).close();
    } catch (err) {
      expect(err).toBeInstanceOf(BashguardWorktreeError);
      return err as BashguardWorktreeError;
    }
    throw new Error(`createGuard accepted ${worktree}`);
  };

  it.each([
    ['relative', (): string => '.builders/b1', /relative path/],
    ['missing', (): string => join(layout.root, 'no-such-dir'), /does not exist/],
    ['not-a-directory', (): string => join(layout.worktree, 'f.txt'), /is not a directory/],
    ['not-a-git-checkout', (): string => layout.outside, /not inside a git checkout/],
  ] as const)('%s', (reason, path, text) => {
    if (reason === 'not-a-directory') writeFileSync(path(), 'x');
    const err = refused(path());
    expect(err.reason).toBe(reason);
    expect(err.path).toBe(path());
    expect(err.message).toContain(JSON.stringify(path()));
    expect(err.message).toMatch(text);
  });

  it('bashguardHook refuses it too, when it is created (not on the first call)', () => {
    expect(() => bashguardHook({ worktree: join(layout.root, 'gone'), env: {} })).toThrow(BashguardWorktreeError);
    expect(() => bashguardHook({ worktree: 'relative/dir', env: {} })).toThrow(/relative path/);
  });

  it('the README example against a worktree that does not exist fails loudly instead of allowing', () => {
    const example = readmeBlock('## Library API', 'js');
    const code = example.replace("join(repo, '.builders/b1')", "join(repo, 'absent/.builders/b1')");
    expect(code).not.toBe(example);
    const file = join(consumer, 'example-absent.mjs');
    writeFileSync(file, code);
    const r = spawnSync(process.execPath, [file], { cwd: consumer, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toMatch(/allow/);
    expect(r.stderr).toMatch(/BashguardWorktreeError: bashguard: worktree ".*absent\/\.builders\/b1" does not exist/);
    expect(r.stdout).toBe('');
  });
});

describe('the package', () => {
  it('importing it has no side effects: no output, no child process, the process exits at once', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('bashguard'); await new Promise((r) => setTimeout(r, 50)); const n = process.getActiveResourcesInfo().filter((x) => x !== 'TTYWrap'); console.log(JSON.stringify(n));"], { cwd: consumer, encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('an orchestrator process exits after its checks without calling close() (the analysis process is unref\'d)', () => {
    const script = `import { createGuard } from 'bashguard'; const g = createGuard({ worktree: ${JSON.stringify(layout.worktree)}, env: {} }); console.log((await g.checkBash('echo x > ../../README.md')).decision);`;
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('deny');
    expect(performance.now() - t0).toBeLessThan(15_000);
  });

  it('a strict TypeScript consumer compiles against the shipped declarations (no TS7016)', () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO_ROOT, 'tsconfig.build.json')], { cwd: REPO_ROOT, stdio: 'pipe' });
    writeFileSync(
      join(consumer, 'use.ts'),
      [
        "import { createGuard, bashguardHook, BASHGUARD_MATCHER, type GuardResult, type GuardFinding } from 'bashguard';",
        "const guard = createGuard({ worktree: '/w', env: {}, timeoutMs: 1000 });",
        "const r: Promise<GuardResult> = guard.checkBash('ls', { cwd: '/w' });",
        "const f: GuardFinding[] = guard.checkPath('Edit', 'x').findings;",
        'const hooks = { PreToolUse: [{ matcher: BASHGUARD_MATCHER, hooks: [bashguardHook({ guard })] }] };',
        '// @ts-expect-error positional arguments are not the API',
        "createGuard('/w');",
        'export { r, f, hooks };',
      ].join('\n'),
    );
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', types: [], skipLibCheck: false, noImplicitAny: true }, files: ['use.ts'] }));
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], { cwd: consumer, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 240_000);
});
