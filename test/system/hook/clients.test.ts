/**
 * Each agent client's hook format (src/frontends/hook/clients/*) through `run(['hook', '--agent', X])`:
 * deny, ask and allow payloads shaped as each client's documentation shows them (sources in each
 * client file's header), answered in that client's format, in a real git layout.
 */
import { spawnSync } from 'node:child_process';
import { commandDefinition } from '../../../src/util/quote.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bwrapHere } from '../../helpers/bwrap.js';
import { run } from '../../../src/frontends/cli/main.js';
import type { IO } from '../../../src/frontends/io.js';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { patchPaths } from '../../../src/frontends/hook/clients/codex.js';
import { heldOrWrapped } from '../../../src/layers/sandbox/held.js';
import { findBwrap } from '../../../src/layers/sandbox/enforce.js';
import { REPO_ROOT } from '../../helpers/shared.js';

let layout: GitLayout;
let home: string;
beforeAll(() => {
  layout = makeGitLayout('bashguard-clients-');
  home = join(layout.root, 'home');
  mkdirSync(home);
});
afterAll(() => layout?.cleanup());

async function hook(agent: string, payload: unknown, exitCode = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io: IO = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    readStdin: async () => (typeof payload === 'string' ? payload : JSON.stringify(payload)),
    env: { HOME: home, PATH: process.env.PATH },
    cwd: layout.outside,
    isTTY: false,
  };
  const code = await run(['hook', '--agent', agent, ...(exitCode ? ['--exit-code'] : [])], io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const canBwrap = bwrapHere("codex's held-or-wrapped check on read-only paths").canRun;
const json = (s: string) => JSON.parse(s) as Record<string, unknown>;
const escape = () => `echo x > ${layout.main}/README.md`;
// Code handed to a daemon (BG4002): an ask with or without the OS enforcement, which holds an
// unresolved write instead (src/frontends/held-asks.ts).
const ASK = 'ssh build-host "$CMD"';
const INSIDE = 'echo x > notes.txt';

describe('codex (PreToolUse, Claude-shaped with turn_id/model; ask and allow fail open there)', () => {
  const ev = (tool_name: string, command: string) => ({
    session_id: 's', turn_id: 't1', transcript_path: null, cwd: layout.worktree, hook_event_name: 'PreToolUse',
    model: 'gpt-5-codex', permission_mode: 'default', tool_name, tool_input: { command }, tool_use_id: 'call_1',
  });

  it('deny: hookSpecificOutput deny with a reason', async () => {
    const r = await hook('codex', ev('Bash', escape()));
    expect(r.code).toBe(0);
    const o = json(r.stdout).hookSpecificOutput as Record<string, string>;
    expect(o.permissionDecision).toBe('deny');
    expect(o.permissionDecisionReason).toContain(`${layout.main}/README.md`);
  });

  it('ask: rendered as deny, saying why', async () => {
    const o = json((await hook('codex', ev('Bash', ASK))).stdout).hookSpecificOutput as Record<string, string>;
    expect(o.permissionDecision).toBe('deny');
    expect(o.permissionDecisionReason).toMatch(/would ask a person here; Codex does not support "ask"/);
  });

  it('allow: with enforcement off, nothing on stdout; with bubblewrap, allow with the command replaced (updatedInput.command)', async () => {
    const cfg = join(home, '.config', 'bashguard');
    mkdirSync(cfg, { recursive: true });
    writeFileSync(join(cfg, 'config.json'), '{"enforce": "off"}\n');
    try {
      expect(await hook('codex', ev('Bash', INSIDE))).toEqual({ code: 0, stdout: '', stderr: '' });
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
    const r = await hook('codex', ev('Bash', INSIDE));
    expect(r.code).toBe(0);
    if (!canBwrap) return void expect(r.stdout).toBe('');
    const o = json(r.stdout).hookSpecificOutput as { permissionDecision: string; updatedInput: { command: string } };
    expect(o.permissionDecision).toBe('allow');
    expect(Object.keys(o.updatedInput)).toEqual(['command']);
    expect(o.updatedInput.command).toMatch(/^__bg_c='echo x > notes\.txt'; if ! \{ \[ -w .*; then eval "\$__bg_c"; else [\s\S]*(bashguard_mounts|bashguard-landlock'? --mounts |--unshare-user)/);
    // (its check names the main checkout, which the wrapper keeps read-only)
    expect(o.updatedInput.command).toContain(`[ -w ${layout.main} ]`);
  });

  it('a sandbox decision stays a deny for Codex (bubblewrap cannot start inside its sandbox)', async () => {
    const cfg = join(home, '.config', 'bashguard');
    mkdirSync(cfg, { recursive: true });
    writeFileSync(join(cfg, 'config.json'), '{"unanalyzable": "sandbox"}\n');
    try {
      const o = json((await hook('codex', ev('Bash', ASK))).stdout).hookSpecificOutput as Record<string, unknown>;
      expect(o.permissionDecision).toBe('deny');
      expect(o.updatedInput).toBeUndefined();
    } finally {
      rmSync(cfg, { recursive: true, force: true });
    }
  });

  it('--exit-code: exit 2 with the reason on stderr', async () => {
    const r = await hook('codex', ev('Bash', escape()), true);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${layout.main}/README.md`);
  });

  const patch = (lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
  it('apply_patch: every Add/Update/Delete/Move-to path is checked', async () => {
    const inside = patch(['*** Add File: notes.txt', '+hi', '*** Update File: src/app.sh', '@@', '-a', '+b']);
    expect((await hook('codex', ev('apply_patch', inside))).stdout).toBe('');
    for (const bad of [
      ['*** Add File: notes.txt', '+hi', `*** Add File: ${layout.main}/new.txt`, '+x'],
      [`*** Update File: ../../README.md`, '@@', '-a', '+b'],
      [`*** Delete File: ${layout.main}/README.md`],
      ['*** Update File: README.md', `*** Move to: ${layout.main}/moved.md`, '@@', '-a', '+b'],
    ]) {
      const o = json((await hook('codex', ev('apply_patch', patch(bad)))).stdout).hookSpecificOutput as Record<string, string>;
      expect(o.permissionDecision, bad.join(' | ')).toBe('deny');
      expect(o.permissionDecisionReason).toContain('outside the worktree');
    }
  });

  it('apply_patch without file lines: deny (cannot tell what it writes)', async () => {
    const o = json((await hook('codex', ev('apply_patch', 'garbage'))).stdout).hookSpecificOutput as Record<string, string>;
    expect(o.permissionDecision).toBe('deny');
    expect(o.permissionDecisionReason).toMatch(/names no file/);
  });

  // The command a client runs for an enforced allow (Codex's sandbox, Claude Code's), run by bash
  // for real: the original where every path is read-only already and the sandbox program cannot
  // start, the wrapper anywhere else.
  describe('heldOrWrapped', () => {
    const original = `printf '%s|' "it's" 'a b' "$((1+2))"; echo`;
    // (a wrapper starts with its command's definition: the command appears once)
    const WRAPPED = `${commandDefinition(original)}echo WRAPPED`;
    const sh = (cmd: string, roDir?: string) => {
      const argv = roDir ? [findBwrap(process.env)!, '--unshare-user', '--dev-bind', '/', '/', '--ro-bind', roDir, roDir, '--', 'bash', '-c', cmd] : ['bash', '-c', cmd];
      const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
      return r.stdout + r.stderr;
    };
    it('no read-only path to check: always the wrapper', () => {
      expect(heldOrWrapped(original, WRAPPED, { readOnly: [], probe: ['false'] })).toBe(WRAPPED);
    });
    it('a path that is writable here: the wrapper, whether bubblewrap starts or not', () => {
      const d = join(layout.root, 'rw-check');
      mkdirSync(d, { recursive: true });
      expect(sh(heldOrWrapped(original, WRAPPED, { readOnly: [d], probe: ['false'] }))).toBe('WRAPPED\n');
      expect(sh(heldOrWrapped(original, WRAPPED, { readOnly: [d], probe: ['true'] }))).toBe('WRAPPED\n');
    });
    it.skipIf(!canBwrap)('every path read-only here: the original byte for byte where bubblewrap cannot start, the wrapper where it can', () => {
      const d = join(layout.root, 'ro-check');
      mkdirSync(d, { recursive: true });
      expect(sh(heldOrWrapped(original, WRAPPED, { readOnly: [d], probe: ['false'] }), d)).toBe("it's|a b|3|\n");
      expect(sh(heldOrWrapped(original, WRAPPED, { readOnly: [d], probe: ['true'] }), d)).toBe('WRAPPED\n');
      // one writable path among read-only ones is enough for the wrapper
      expect(sh(heldOrWrapped(original, WRAPPED, { readOnly: [d, layout.root], probe: ['false'] }), d)).toBe('WRAPPED\n');
    });
  });

  it('patchPaths reads each header kind', () => {
    expect(patchPaths('*** Begin Patch\n*** Add File: a\n+x\n*** Update File: b\n*** Move to: c\n*** Delete File: d\n*** End Patch')).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('gemini (BeforeTool; decision/reason)', () => {
  const ev = (tool_name: string, tool_input: Record<string, unknown>) => ({
    session_id: 's', transcript_path: '/t', cwd: layout.worktree, hook_event_name: 'BeforeTool', timestamp: '2026-11-23T10:00:00Z', tool_name, tool_input,
  });

  it('deny run_shell_command escaping the worktree', async () => {
    const o = json((await hook('gemini', ev('run_shell_command', { command: escape(), description: 'd' }))).stdout);
    expect(o.decision).toBe('deny');
    expect(String(o.reason)).toContain(`${layout.main}/README.md`);
  });

  it('dir_path is where the command runs (relative to cwd)', async () => {
    const o = json((await hook('gemini', ev('run_shell_command', { command: 'echo x > README.md', dir_path: '../..' }))).stdout);
    expect(o.decision).toBe('deny');
    expect((await hook('gemini', ev('run_shell_command', { command: 'echo x > README.md', dir_path: 'src' }))).stdout).toBe('');
  });

  it('ask: deny, saying headless Gemini would wait forever', async () => {
    const o = json((await hook('gemini', ev('run_shell_command', { command: ASK }))).stdout);
    expect(o.decision).toBe('deny');
    expect(String(o.reason)).toMatch(/Gemini CLI waits forever for a confirmation/);
  });

  it('write_file / replace paths: deny outside, allow inside', async () => {
    expect(json((await hook('gemini', ev('write_file', { file_path: `${layout.main}/README.md`, content: 'x' }))).stdout).decision).toBe('deny');
    expect(json((await hook('gemini', ev('replace', { file_path: `${layout.main}/README.md`, old_string: 'a', new_string: 'b' }))).stdout).decision).toBe('deny');
    expect(await hook('gemini', ev('write_file', { file_path: `${layout.worktree}/notes.txt`, content: 'x' }))).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('allow and unknown tools: nothing', async () => {
    expect((await hook('gemini', ev('run_shell_command', { command: INSIDE }))).stdout).toBe('');
    expect((await hook('gemini', ev('read_file', { file_path: `${layout.main}/README.md` }))).stdout).toBe('');
  });

  it('--exit-code: exit 2 blocks with stderr', async () => {
    const r = await hook('gemini', ev('run_shell_command', { command: escape() }), true);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(layout.main);
  });
});

describe('cursor (beforeShellExecution; permission + user_message/agent_message)', () => {
  const ev = (command: string) => ({
    conversation_id: 'c', generation_id: 'g', hook_event_name: 'beforeShellExecution', workspace_roots: [layout.worktree], command, cwd: layout.worktree,
  });

  it('deny with both messages', async () => {
    const o = json((await hook('cursor', ev(escape()))).stdout);
    expect(o.permission).toBe('deny');
    expect(String(o.agent_message)).toContain(`${layout.main}/README.md`);
    expect(o.user_message).toBe(o.agent_message);
  });

  it('ask: deny, saying auto-review ignores ask', async () => {
    const o = json((await hook('cursor', ev(ASK))).stdout);
    expect(o.permission).toBe('deny');
    expect(String(o.agent_message)).toMatch(/Cursor ignores "ask"/);
  });

  it('allow: an explicit allow', async () => {
    expect(json((await hook('cursor', ev(INSIDE))).stdout)).toEqual({ permission: 'allow' });
  });

  it('other events are not judged; a shell event without command is drift (deny)', async () => {
    expect(json((await hook('cursor', { hook_event_name: 'beforeReadFile', file_path: '/etc/passwd' })).stdout)).toEqual({ permission: 'allow' });
    expect(json((await hook('cursor', { hook_event_name: 'beforeShellExecution', cwd: layout.worktree })).stdout).permission).toBe('deny');
  });
});

describe('copilot (preToolUse; toolArgs as a JSON string; permissionDecision)', () => {
  const ev = (toolName: string, args: Record<string, unknown>, asString = true) => ({
    timestamp: 1704614600000, cwd: layout.worktree, toolName, toolArgs: asString ? JSON.stringify(args) : args,
  });

  it('deny bash escaping the worktree (toolArgs string or object)', async () => {
    for (const asString of [true, false]) {
      const o = json((await hook('copilot', ev('bash', { command: escape(), description: 'd' }, asString))).stdout);
      expect(o.permissionDecision).toBe('deny');
      expect(String(o.permissionDecisionReason)).toContain(`${layout.main}/README.md`);
    }
  });

  it('ask: deny, saying why', async () => {
    const o = json((await hook('copilot', ev('bash', { command: ASK }))).stdout);
    expect(o.permissionDecision).toBe('deny');
    expect(String(o.permissionDecisionReason)).toMatch(/asks only in interactive sessions/);
  });

  it('edit/create paths; allow prints nothing', async () => {
    expect(json((await hook('copilot', ev('edit', { path: `${layout.main}/README.md`, old_str: 'a', new_str: 'b' }))).stdout).permissionDecision).toBe('deny');
    expect(json((await hook('copilot', ev('create', { path: '../../x.txt', file_text: 'x' }))).stdout).permissionDecision).toBe('deny');
    expect((await hook('copilot', ev('create', { path: 'x.txt', file_text: 'x' }))).stdout).toBe('');
    expect((await hook('copilot', ev('bash', { command: INSIDE }))).stdout).toBe('');
    expect((await hook('copilot', ev('view', { path: `${layout.main}/README.md` }))).stdout).toBe('');
  });

  it('unparsable toolArgs for bash: deny (drift)', async () => {
    const o = json((await hook('copilot', { timestamp: 1, cwd: layout.worktree, toolName: 'bash', toolArgs: '{not json' })).stdout);
    expect(o.permissionDecision).toBe('deny');
  });
});

describe('claude stays the default', () => {
  it('`--agent claude` and no --agent give the same answer', async () => {
    const ev = { session_id: 's', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: escape() } };
    const a = await hook('claude', ev);
    const out: string[] = [];
    const io: IO = { stdout: (t) => void out.push(t), stderr: () => undefined, readStdin: async () => JSON.stringify(ev), env: { HOME: home }, cwd: layout.outside, isTTY: false };
    expect(await run(['hook'], io)).toBe(0);
    expect(a.stdout).toBe(out.join(''));
    expect((json(a.stdout).hookSpecificOutput as Record<string, string>).permissionDecision).toBe('deny');
  });

  it('an unknown agent is a usage error (exit 2)', async () => {
    const r = await hook('vim', {});
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('bashguard: unknown --agent "vim"; valid agents: claude, codex, gemini, cursor, copilot\n');
    expect(r.stdout).toBe('');
  });

  it('the installed entry with an unknown agent: one line, exit 2, before anything loads (the built CLI)', () => {
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin', 'bashguard.js'), 'hook', '--agent', 'bogus'], { input: '{}', encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('bashguard: unknown --agent "bogus"; valid agents: claude, codex, gemini, cursor, copilot\n');
  });
});

describe("another client's event is answered with an error, never a silent allow", () => {
  // One event of each client's protocol, each running a command inside the worktree (which its own
  // adapter allows): only the protocol mismatch can make it a deny.
  const events = (): Record<string, Record<string, unknown>> => ({
    claude: { session_id: 's', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: join(layout.worktree, 'a.txt') } },
    codex: { session_id: 's', turn_id: 't', cwd: layout.worktree, hook_event_name: 'PreToolUse', model: 'm', tool_name: 'apply_patch', tool_input: { command: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch' } },
    gemini: { session_id: 's', cwd: layout.worktree, hook_event_name: 'BeforeTool', timestamp: 't', tool_name: 'run_shell_command', tool_input: { command: INSIDE } },
    cursor: { conversation_id: 'c', generation_id: 'g', hook_event_name: 'beforeShellExecution', workspace_roots: [layout.worktree], command: INSIDE, cwd: layout.worktree },
    copilot: { timestamp: 1, cwd: layout.worktree, toolName: 'bash', toolArgs: JSON.stringify({ command: INSIDE }) },
  });
  const names = ['claude', 'codex', 'gemini', 'cursor', 'copilot'];
  const pairs = names.flatMap((agent) => names.map((from) => [agent, from] as const));

  it.each(pairs)('--agent %s given a %s event', async (agent, from) => {
    const r = await hook(agent, events()[from]);
    if (agent === from) {
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/hook format/);
      return;
    }
    // Exit 2 blocks in every client; the reason names both sides and the fix.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`hook format, but the hook was installed for .* \\(--agent ${agent}\\); the call is blocked\\. Install bashguard for this client: bashguard install --agent ${from}\n$`));
    // And the sender's own deny on stdout where its protocol has one.
    if (r.stdout) expect(r.stdout).toMatch(/deny/);
  });

  it("a Codex event for a tool bashguard does not judge stays no business of the Codex adapter (Claude-shaped, not foreign)", async () => {
    const r = await hook('codex', { session_id: 's', turn_id: 't', cwd: layout.worktree, hook_event_name: 'PreToolUse', model: 'm', tool_name: 'write_stdin', tool_input: { chars: 'x' } });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("Codex's Bash events are Claude-shaped: the Codex adapter reads a Claude Bash event as its own", async () => {
    const r = await hook('codex', { session_id: 's', cwd: layout.worktree, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: escape() } });
    expect(r.code).toBe(0);
    expect((json(r.stdout).hookSpecificOutput as Record<string, string>).permissionDecision).toBe('deny');
    expect(r.stderr).not.toMatch(/hook format/);
  });
});
