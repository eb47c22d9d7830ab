/**
 * `bashguard install|uninstall|doctor --agent codex|gemini|cursor|copilot`: each client's hook
 * config in its documented file and format (sources in src/frontends/hook/clients/<name>.ts). Claude Code's
 * own install/doctor stay in install.ts. Idempotent: our entry is recognised by its command
 * (bashguard-hook / bashguard hook), replaced in place, every other entry and setting kept.
 */
import { existsSync, lstatSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError, type IO } from '../io.js';
import { discoverLayout } from '../../policy/layout/discover.js';
import { OUR_COMMAND, hookCommand, readSettings, writeSettings, type HookForm } from './install.js';
import { codexDoctorLines, codexHome } from './codex-doctor.js';

type Json = Record<string, unknown>;
type Scope = 'user' | 'project';

interface AgentConfig {
  /** The config file relative to the project root, and to HOME for user scope (null: no user scope). */
  project: string;
  user: string | null;
  /** The path of the list our entry goes in: hooks.<event>. */
  event: string;
  /** Our entry, given the hook command. */
  entry(command: string): Json;
  /** Top-level fields the file must have (Cursor and Copilot: version 1). */
  base?: Json;
  /** Where an entry keeps its command (Copilot: `bash`), possibly nested in `hooks: [...]`. */
  nested: boolean;
  commandField: string;
  /** How the client's hook shell gets the supervisor (src/frontends/cli/install.ts, HookForm). */
  form: HookForm;
  note?: string;
}

const TIMEOUT_S = 30;

export const AGENT_CONFIGS: Record<string, AgentConfig> = {
  // developers.openai.com/codex/hooks: Claude-shaped hooks.json; project files only in trusted projects.
  codex: {
    project: '.codex/hooks.json',
    user: '.codex/hooks.json',
    event: 'PreToolUse',
    nested: true,
    commandField: 'command',
    // Codex 0.169 ran the command with /bin/bash in the e2e test's strace; which shell is not known
    // from its code, so the script runs under its own #!/bin/sh.
    form: 'exec',
    entry: (command) => ({ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command, timeout: TIMEOUT_S }] }),
    // (hooks on by default since they became stable: developers.openai.com/codex/hooks, and
    // `codex features list` on 0.169.0 says `hooks stable true`)
    note: 'Codex runs hooks unless `[features] hooks = false` turns them off, and only after you review and trust them (/hooks in the Codex TUI; project hooks only in trusted projects); `codex exec` skips an untrusted hook silently unless given --dangerously-bypass-hook-trust. With CODEX_HOME set, the user-level file is $CODEX_HOME/hooks.json.',
  },
  // gemini-cli docs/hooks/reference.md: settings.json hooks.BeforeTool, timeout in milliseconds.
  gemini: {
    project: '.gemini/settings.json',
    user: '.gemini/settings.json',
    event: 'BeforeTool',
    nested: true,
    commandField: 'command',
    // gemini-cli getShellConfiguration (0.61.0): `bash -c` outside Windows.
    form: 'source',
    entry: (command) => ({ matcher: 'run_shell_command|write_file|replace', hooks: [{ type: 'command', command, timeout: TIMEOUT_S * 1000 }] }),
  },
  // cursor.com/docs/agent/hooks: {version: 1, hooks: {beforeShellExecution: [{command}]}}.
  cursor: {
    project: '.cursor/hooks.json',
    user: '.cursor/hooks.json',
    event: 'beforeShellExecution',
    base: { version: 1 },
    nested: false,
    commandField: 'command',
    form: 'exec',
    // failClosed (cursor.com/docs/agent/hooks, agent-hooks.md): a hook that crashes, times out or
    // prints invalid JSON blocks the command instead of letting it run.
    entry: (command) => ({ command, failClosed: true }),
    // Cursor's documented blocking events are beforeShellExecution, beforeMCPExecution,
    // beforeReadFile and beforeSubmitPrompt; edits get afterFileEdit only. A `preToolUse` event is
    // named in some third-party material, but no input shape for it is documented where we could
    // check it, so edits are not judged.
    note: 'Cursor has no documented hook before file edits (afterFileEdit runs after the fact): only shell commands are checked.',
  },
  // docs.github.com Copilot CLI hooks: .github/hooks/*.json, {version: 1, hooks: {preToolUse: [{type, bash, timeoutSec}]}}.
  copilot: {
    project: '.github/hooks/bashguard.json',
    user: null,
    event: 'preToolUse',
    base: { version: 1 },
    nested: false,
    commandField: 'bash',
    form: 'exec',
    entry: (command) => ({ type: 'command', bash: command, timeoutSec: TIMEOUT_S }),
  },
};

export function agentConfigPath(io: IO, agent: string, scope: Scope): string {
  const spec = AGENT_CONFIGS[agent]!;
  if (scope === 'user') {
    if (!spec.user) throw new UsageError(`${agent} has no user-level hook file; install with --project`);
    // Codex reads its user layer from $CODEX_HOME when that is set (./codex-doctor.ts).
    if (agent === 'codex' && io.env.CODEX_HOME) {
      const home = codexHome(io.env);
      if (!home.dir) throw new UsageError(home.problem!);
      return join(home.dir, 'hooks.json');
    }
    if (!io.env.HOME) throw new UsageError(`HOME is not set; cannot find ~/${spec.user}`);
    return join(io.env.HOME, spec.user);
  }
  const found = discoverLayout(io.cwd);
  const root = found.ok && found.layout.current.root ? found.layout.current.root : io.cwd;
  return join(root, spec.project);
}

/** The command for `agent`, in the form install writes for it (or `form`). */
export function agentHookCommand(agent: string, form: HookForm = AGENT_CONFIGS[agent]!.form): string {
  return hookCommand(['--agent', agent], form);
}

function isOurs(spec: AgentConfig, h: unknown): boolean {
  const c = typeof h === 'object' && h !== null ? (h as Json)[spec.commandField] : undefined;
  return typeof c === 'string' && OUR_COMMAND.test(c);
}

function withoutOurs(spec: AgentConfig, list: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const entry of list) {
    if (!spec.nested) {
      if (!isOurs(spec, entry)) out.push(entry);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || !Array.isArray((entry as Json).hooks)) {
      out.push(entry);
      continue;
    }
    const rest = ((entry as Json).hooks as unknown[]).filter((h) => !isOurs(spec, h));
    if (rest.length > 0) out.push({ ...(entry as Json), hooks: rest });
  }
  return out;
}

/** The file's content with exactly one bashguard entry (added or updated). */
export function mergeAgentHook(agent: string, settings: Json, command: string): Json {
  const spec = AGENT_CONFIGS[agent]!;
  const hooks = (typeof settings.hooks === 'object' && settings.hooks !== null ? { ...(settings.hooks as Json) } : {}) as Json;
  const list = Array.isArray(hooks[spec.event]) ? (hooks[spec.event] as unknown[]) : [];
  hooks[spec.event] = [...withoutOurs(spec, list), spec.entry(command)];
  return { ...spec.base, ...settings, hooks };
}

export function removeAgentHook(agent: string, settings: Json): Json {
  const spec = AGENT_CONFIGS[agent]!;
  if (typeof settings.hooks !== 'object' || settings.hooks === null) return settings;
  const hooks = { ...(settings.hooks as Json) };
  if (Array.isArray(hooks[spec.event])) {
    const left = withoutOurs(spec, hooks[spec.event] as unknown[]);
    if (left.length > 0) hooks[spec.event] = left;
    else delete hooks[spec.event];
  }
  return { ...settings, hooks };
}

export function runAgentInstall(io: IO, agent: string, opts: { scope: Scope; dryRun: boolean }): number {
  const file = agentConfigPath(io, agent, opts.scope);
  const before = readSettings(file);
  const after = mergeAgentHook(agent, before, agentHookCommand(agent));
  if (opts.dryRun) {
    io.stdout(JSON.stringify(after, null, 2) + '\n');
    return 0;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) {
    io.stdout(`bashguard hook already installed in ${file}\n`);
    return 0;
  }
  writeSettings(file, after);
  const note = AGENT_CONFIGS[agent]!.note;
  io.stdout(`bashguard hook installed for ${agent} in ${file}\n${note ? `note: ${note}\n` : ''}`);
  return 0;
}

export function runAgentUninstall(io: IO, agent: string, opts: { scope: Scope; dryRun: boolean }): number {
  const file = agentConfigPath(io, agent, opts.scope);
  const before = readSettings(file);
  const after = removeAgentHook(agent, before);
  if (opts.dryRun) {
    io.stdout(JSON.stringify(after, null, 2) + '\n');
    return 0;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) {
    io.stdout(`no bashguard hook in ${file}\n`);
    return 0;
  }
  // Nothing left but what install added (the file's `version` and an empty `hooks`): no file and
  // no empty directory behind.
  const rest = { ...after } as Json;
  if (typeof rest.hooks === 'object' && rest.hooks !== null && Object.keys(rest.hooks).length === 0) delete rest.hooks;
  for (const [k, v] of Object.entries(AGENT_CONFIGS[agent]!.base ?? {})) if (rest[k] === v) delete rest[k];
  if (Object.keys(rest).length === 0 && !lstatSync(file).isSymbolicLink()) {
    rmSync(file, { force: true });
    // Only the directories of the client's own path (.github/hooks, .cursor ...), never the root above them.
    const depth = AGENT_CONFIGS[agent]!.project.split('/').length - 1;
    for (let dir = dirname(file), i = 0; i < depth; dir = dirname(dir), i++) {
      try {
        rmdirSync(dir);
      } catch {
        break;
      }
    }
    io.stdout(`bashguard hook removed; ${file} held nothing else and was deleted\n`);
    return 0;
  }
  writeSettings(file, after);
  io.stdout(`bashguard hook removed from ${file}\n`);
  return 0;
}

/** Checks the client's config: our entry present (project or user), with the current command. Exit 0 ok, 1 not. */
export function runAgentDoctor(io: IO, agent: string): number {
  const spec = AGENT_CONFIGS[agent]!;
  const want = agentHookCommand(agent);
  const userFile = (): string[] => {
    try {
      return spec.user && (io.env.HOME || (agent === 'codex' && io.env.CODEX_HOME)) ? [agentConfigPath(io, agent, 'user')] : [];
    } catch (err) {
      // (a relative CODEX_HOME: the Codex lines below say so and fail)
      if (!(err instanceof UsageError)) throw err;
      return [];
    }
  };
  const files = [agentConfigPath(io, agent, 'project'), ...userFile()];
  let found = false;
  let problems = 0;
  for (const file of files) {
    if (!existsSync(file)) {
      io.stdout(`- ${file}: absent\n`);
      continue;
    }
    let settings: Json;
    try {
      settings = readSettings(file);
    } catch (err) {
      io.stdout(`✗ ${(err as Error).message}\n`);
      problems++;
      continue;
    }
    const list = (settings.hooks as Json | undefined)?.[spec.event];
    const entries = (Array.isArray(list) ? list : []).flatMap((e) => (spec.nested ? ((e as Json)?.hooks as unknown[] | undefined) ?? [] : [e]));
    const ours = entries.filter((h) => isOurs(spec, h));
    if (ours.length === 0) {
      io.stdout(`- ${file}: no bashguard entry under hooks.${spec.event}\n`);
      continue;
    }
    found = true;
    const cmd = (ours[0] as Json)[spec.commandField];
    // The other form (what an older install wrote for this client) runs the same supervisor.
    const other = agentHookCommand(agent, spec.form === 'source' ? 'exec' : 'source');
    if (cmd === other) io.stdout(`✓ ${file}: hooks.${spec.event} runs ${other} (\`bashguard install --agent ${agent}\` writes the form that starts faster: ${want})\n`);
    else if (cmd !== want) {
      io.stdout(`✗ ${file}: the bashguard entry runs ${JSON.stringify(cmd)}, not ${JSON.stringify(want)} (rerun bashguard install --agent ${agent})\n`);
      problems++;
    } else io.stdout(`✓ ${file}: hooks.${spec.event} runs ${want}\n`);
    if ((settings.version ?? spec.base?.version) !== spec.base?.version) {
      io.stdout(`✗ ${file}: "version" is ${JSON.stringify(settings.version)}, expected ${JSON.stringify(spec.base?.version)}\n`);
      problems++;
    }
  }
  if (!found) io.stdout(`✗ no bashguard hook for ${agent} (run bashguard install --agent ${agent})\n`);
  if (agent === 'codex') {
    for (const l of codexDoctorLines(io, found && problems === 0)) {
      io.stdout(`${l.ok === null ? '-' : l.ok ? '✓' : '✗'} ${l.text}\n`);
      if (l.ok === false) problems++;
    }
  }
  if (spec.note) io.stdout(`note: ${spec.note}\n`);
  return found && problems === 0 ? 0 : 1;
}
