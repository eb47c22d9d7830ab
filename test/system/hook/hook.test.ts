/**
 * The hook front-end through `run(['hook'], io)`: malformed input (fail open with a reason on
 * stderr), protocol drift (deny naming the field), oversized input (ask), `--exit-code`, config
 * errors, and real decisions in a real git layout (main checkout with a linked worktree nested at
 * .builders/b1), including the Edit path cases of the worktree-edit-guard seed (symlinks, `..`,
 * relative paths, /tmp).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/memory-io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { isAllowOutput } from '../../helpers/allow.js';

interface Result {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

async function hook(stdin: string, opts: { cwd?: string; env?: Record<string, string>; exitCode?: boolean } = {}): Promise<Result> {
  const t0 = performance.now();
  const r = await runCli(opts.exitCode ? ['hook', '--exit-code'] : ['hook'], { stdin, env: { HOME: home, PATH: process.env.PATH, ...opts.env }, cwd: opts.cwd ?? outsideDir });
  return { code: r.code, stdout: r.out, stderr: r.err, ms: performance.now() - t0 };
}

const event = (tool: string, input: Record<string, unknown> | undefined, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's', transcript_path: '/x', hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, cwd, ...extra });

interface Answer {
  hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
}

/** Parses stdout and checks the exact shape of the answer. */
function answer(r: Result): Answer['hookSpecificOutput'] {
  expect(r.code).toBe(0);
  expect(r.stdout.endsWith('\n')).toBe(true);
  const parsed = JSON.parse(r.stdout) as Answer;
  expect(Object.keys(parsed)).toEqual(['hookSpecificOutput']);
  expect(Object.keys(parsed.hookSpecificOutput).sort()).toEqual(['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
  expect(parsed.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  expect(['deny', 'ask']).toContain(parsed.hookSpecificOutput.permissionDecision);
  expect(typeof parsed.hookSpecificOutput.permissionDecisionReason).toBe('string');
  return parsed.hookSpecificOutput;
}

function allowed(r: Result): void {
  expect(r.code).toBe(0);
  expect(isAllowOutput(r.stdout), r.stdout).toBe(true);
}

let layout: GitLayout;
let home: string;
let outsideDir: string;
let plain: string;
let scratch: string;

beforeAll(() => {
  layout = makeGitLayout('bashguard-hook-');
  home = join(layout.root, 'home');
  mkdirSync(home);
  outsideDir = layout.outside;
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'bashguard-hook-scratch-')));
  // A plain checkout (no linked worktree).
  plain = join(layout.root, 'plain');
  mkdirSync(plain);
  writeFileSync(join(plain, 'f'), 'x');
  mkdirSync(join(plain, '.git'));
  writeFileSync(join(plain, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(plain, '.git', 'objects'));
  mkdirSync(join(plain, '.git', 'refs'));
  // Symlinks inside the worktree for the Edit cases (seed 001).
  const wt = layout.worktree;
  symlinkSync(join(layout.main, 'README.md'), join(wt, 'link-to-main-readme'));
  symlinkSync(join(layout.main, 'does-not-exist.md'), join(wt, 'broken-link-to-main'));
  symlinkSync(join(layout.main, 'src'), join(wt, 'linked-src'));
  symlinkSync(join(wt, 'src', 'app.sh'), join(wt, 'link-inside'));
});

afterAll(() => {
  layout?.cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

describe('malformed input fails open with a reason on stderr', () => {
  it('empty stdin: allow, stderr says why', async () => {
    for (const stdin of ['', '  \n']) {
      const r = await hook(stdin);
      allowed(r);
      expect(r.stderr).toMatch(/empty hook input/);
    }
  });

  it('non-JSON: allow, stderr says why', async () => {
    const r = await hook('{"tool_name": "Bash", ');
    allowed(r);
    expect(r.stderr).toMatch(/not valid JSON/);
  });

  it('a JSON array or scalar: allow, stderr says why', async () => {
    for (const stdin of ['[{"tool_name":"Bash"}]', '42', 'null', '"Bash"']) {
      const r = await hook(stdin);
      allowed(r);
      expect(r.stderr).toMatch(/not a JSON object|not valid JSON/);
    }
  });

  it('missing tool_name: allow, stderr says why', async () => {
    const r = await hook(JSON.stringify({ tool_input: { command: `echo x > ${layout.main}/README.md` }, cwd: layout.worktree }));
    allowed(r);
    expect(r.stderr).toMatch(/no tool_name/);
  });

  it('unknown or out-of-scope tool: no output, exit 0, nothing on stderr', async () => {
    for (const tool of ['Read', 'Grep', 'WebFetch', 'SomeFutureTool']) {
      const r = await hook(event(tool, { file_path: `${layout.main}/README.md`, command: 'rm -rf /' }, layout.worktree));
      allowed(r);
      expect(r.stderr).toBe('');
    }
  });
});

describe('protocol drift fails closed: deny naming the field', () => {
  it.each([
    ['Bash', 'command', undefined],
    ['Bash', 'command', {}],
    ['Bash', 'command', { command: 42 }],
    ['Bash', 'command', { cmd: 'ls' }],
    ['Edit', 'file_path', { path: 'x' }],
    ['Write', 'file_path', { content: 'x' }],
    ['MultiEdit', 'file_path', { edits: [] }],
    ['NotebookEdit', 'notebook_path', { file_path: 'x.ipynb' }],
  ])('%s without tool_input.%s', async (tool, field, input) => {
    const r = await hook(event(tool, input as Record<string, unknown> | undefined, layout.worktree));
    const a = answer(r);
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toContain(`tool_input.${field}`);
    expect(a.permissionDecisionReason).toContain(tool);
  });
});

describe('limits and robustness', () => {
  it('a 10 MB command: ask, within a bound', async () => {
    const cmd = 'echo ' + 'a'.repeat(10 * 1024 * 1024);
    const r = await hook(event('Bash', { command: cmd }, layout.worktree));
    const a = answer(r);
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toMatch(/could not analyze|limit|too large|over/i);
    expect(r.ms).toBeLessThan(10_000);
  });

  it('stdin over the hook input limit: ask, not parsed', async () => {
    const r = await hook(event('Bash', { command: 'echo ' + 'a'.repeat(17 * 1024 * 1024) }, layout.worktree));
    expect(answer(r).permissionDecision).toBe('ask');
    expect(r.ms).toBeLessThan(10_000);
  });

  it('newer unknown fields are tolerated (top level and in tool_input)', async () => {
    const r = await hook(event('Bash', { command: `echo x > ${layout.main}/README.md`, description: 'd', timeout: 5, run_in_background: false, future: { a: 1 } }, layout.worktree, { permission_mode: 'default', tool_use_id: 't1', brand_new: [1, 2] }));
    expect(answer(r).permissionDecision).toBe('deny');
    const ok = await hook(event('Bash', { command: 'echo x > notes.txt', future: true }, layout.worktree, { brand_new: 1 }));
    allowed(ok);
  });

  it('--exit-code: exit 2 and the reason on stderr for deny, nothing on stdout', async () => {
    const r = await hook(event('Bash', { command: `echo x > ${layout.main}/README.md` }, layout.worktree), { exitCode: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${layout.main}/README.md`);
    const ok = await hook(event('Bash', { command: 'echo x > notes.txt' }, layout.worktree), { exitCode: true });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('');
    expect(ok.stderr).toBe('');
  });

  it('--exit-code with protocol drift: exit 2 naming the field', async () => {
    const r = await hook(event('Write', {}, layout.worktree), { exitCode: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tool_input.file_path');
  });
});

describe('where the hook enforces', () => {
  it('cwd not inside a checkout: allow, and say why on stderr (one line)', async () => {
    for (const r of [
      await hook(event('Bash', { command: `echo x > ${layout.main}/README.md` }, outsideDir), { cwd: outsideDir }),
      await hook(event('Write', { file_path: `${layout.main}/README.md` }, outsideDir), { cwd: outsideDir }),
    ]) {
      allowed(r);
      expect(r.stderr).toBe(`bashguard: not inside a git checkout (cwd ${outsideDir}); allowing\n`);
    }
  });

  it('a plain checkout (no linked worktree): allow, quietly', async () => {
    for (const r of [
      await hook(event('Bash', { command: 'echo x > /etc/whatever && rm -rf ../x' }, plain), { cwd: plain }),
      await hook(event('Bash', { command: `echo x > ${layout.main}/README.md` }, layout.main), { cwd: layout.main }),
    ]) {
      allowed(r);
      expect(r.stderr).toBe('');
    }
  });

  it('the event cwd wins over the process cwd', async () => {
    const r = await hook(event('Bash', { command: `echo x > ${layout.main}/README.md` }, layout.worktree), { cwd: outsideDir });
    expect(answer(r).permissionDecision).toBe('deny');
  });

  it("invalid worktree .bashguard.json: deny (the agent can write it), with one line naming the file and the field", async () => {
    const cfg = join(layout.worktree, '.bashguard.json');
    writeFileSync(cfg, '{"unanalyzable": "allow"}');
    try {
      const a = answer(await hook(event('Bash', { command: 'ls' }, layout.worktree)));
      expect(a.permissionDecision).toBe('deny');
      expect(a.permissionDecisionReason).toContain(cfg);
      expect(a.permissionDecisionReason).toContain('unanalyzable');
      expect(a.permissionDecisionReason.split('\n')).toHaveLength(1);
    } finally {
      rmSync(cfg);
    }
  });

  it('BASHGUARD_CONFIG pointing at a missing file: ask, naming it', async () => {
    const missing = join(layout.root, 'nope', 'bashguard.json');
    const a = answer(await hook(event('Bash', { command: 'ls' }, layout.worktree), { env: { BASHGUARD_CONFIG: missing } }));
    expect(a.permissionDecision).toBe('ask');
    expect(a.permissionDecisionReason).toContain(missing);
  });
});

describe('Bash decisions in a real worktree', () => {
  it('deny `echo x > <main>/README.md`; the reason names the path, the worktree root and a fix', async () => {
    const a = answer(await hook(event('Bash', { command: `echo x > ${layout.main}/README.md` }, layout.worktree)));
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toContain(`${layout.main}/README.md`);
    expect(a.permissionDecisionReason).toContain(layout.worktree);
    expect(a.permissionDecisionReason).toMatch(/Fix:/);
  });

  it('allow writes inside the worktree and to /tmp', async () => {
    allowed(await hook(event('Bash', { command: `echo x > ${layout.worktree}/README.md && echo y > notes.txt && echo z > /tmp/scratch.txt` }, layout.worktree)));
  });

  it('deny `cd ../.. && echo x > README.md` (relative escape)', async () => {
    expect(answer(await hook(event('Bash', { command: 'cd ../.. && echo x > README.md' }, layout.worktree))).permissionDecision).toBe('deny');
  });

  it('deny a write into a symlinked directory that points at the main checkout', async () => {
    expect(answer(await hook(event('Bash', { command: 'echo x > linked-src/app.sh' }, layout.worktree))).permissionDecision).toBe('deny');
  });
});

describe('Edit/Write/MultiEdit/NotebookEdit paths (seed 001 cases)', () => {
  const decide = async (tool: string, path: string) => {
    const field = tool === 'NotebookEdit' ? 'notebook_path' : 'file_path';
    return hook(event(tool, { [field]: path, old_string: 'a', new_string: 'b', content: 'c' }, layout.worktree));
  };

  it('absolute path into the main checkout: deny, naming path, worktree root and fix', async () => {
    for (const tool of ['Edit', 'Write', 'MultiEdit', 'NotebookEdit']) {
      const a = answer(await decide(tool, `${layout.main}/README.md`));
      expect(a.permissionDecision).toBe('deny');
      expect(a.permissionDecisionReason).toContain(`${layout.main}/README.md`);
      expect(a.permissionDecisionReason).toContain(layout.worktree);
      expect(a.permissionDecisionReason).toMatch(/Use a path under the worktree root/);
    }
  });

  it('inside the worktree (absolute, relative, new file, in-worktree symlink): allow', async () => {
    allowed(await decide('Edit', `${layout.worktree}/README.md`));
    allowed(await decide('Edit', 'README.md'));
    allowed(await decide('Write', 'src/new-file.ts'));
    allowed(await decide('Write', `${layout.worktree}/brand/new/dir/file.txt`));
    allowed(await decide('Edit', 'link-inside'));
  });

  it('existing target that IS a symlink pointing outside: deny, showing where it resolves', async () => {
    const a = answer(await decide('Edit', `${layout.worktree}/link-to-main-readme`));
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toContain(`${layout.main}/README.md`);
  });

  it('broken symlink pointing outside: deny', async () => {
    const a = answer(await decide('Write', 'broken-link-to-main'));
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toContain(`${layout.main}/does-not-exist.md`);
  });

  it('new file under a symlinked parent: deny', async () => {
    const a = answer(await decide('Write', 'linked-src/new.sh'));
    expect(a.permissionDecision).toBe('deny');
    expect(a.permissionDecisionReason).toContain(`${layout.main}/src/new.sh`);
  });

  it('relative path with `..` out of the worktree: deny', async () => {
    expect(answer(await decide('Edit', '../../README.md')).permissionDecision).toBe('deny');
    expect(answer(await decide('Edit', `${layout.worktree}/src/../../../README.md`)).permissionDecision).toBe('deny');
    expect(answer(await decide('Edit', '../b2/README.md')).permissionDecision).toBe('deny');
  });

  it('`..` that stays inside the worktree: allow', async () => {
    allowed(await decide('Edit', 'src/../README.md'));
  });

  it('/tmp is a write root: allow', async () => {
    allowed(await decide('Write', '/tmp/bashguard-hook-test.txt'));
    allowed(await decide('Write', `${scratch}/x.txt`));
  });

  it('outside everything: deny', async () => {
    expect(answer(await decide("Write", "/usr/local/bashguard-hook-test/x.txt")).permissionDecision).toBe("deny");
    expect(answer(await decide("Write", `${layout.sibling}/README.md`)).permissionDecision).toBe("deny");
  });
});
