/**
 * The commander program for everything but the hook's fast path. Each command only formats what
 * the engine (src/policy/workspace, src/engine/analyze.ts) returns.
 */
import { Option, type Command } from 'commander';
import { parseProgram, rootProgram } from './root.js';
import { statSync } from 'node:fs';
import { readRegularFile } from '../../util/safe-read.js';
import { resolve } from 'node:path';
import { errnoText, UsageError, type IO } from '../io.js';
import { getParser, type BackendChoice } from '../../engine/parse/index.js';
import { openWorkspace } from '../../policy/workspace/index.js';
import { ConfigError } from '../../policy/config.js';
import { formatExplain, formatVerdict, style, visible } from './format.js';
import { RULES, resolveRuleRef, ruleById } from '../../policy/rules/catalog.js';
import { runDemo } from './demo.js';
import { answerBash } from '../decide.js';
import { runInstall, runUninstall, type ClaudeHookForm } from './install.js';
import { runDoctor } from './doctor.js';
import { effectsToJson } from './json.js';
import { addFormatOptions, chosenFormat } from './format-option.js';

const TEXT_JSON = ['text', 'json'] as const;
import { AGENT_NAMES, clientByName } from '../hook/clients/index.js';
import { armOrRefuse, TIME_LIMIT_UNAVAILABLE } from '../../util/time-limit.js';

async function readSource(io: IO, command: string | undefined, file: string | undefined): Promise<string> {
  if (file) {
    if (file === '-') return io.readStdin();
    // Non-blocking, a regular file only (a FIFO would hang the read), bounded: the hook's own read.
    const r = readRegularFile(resolve(io.cwd, file));
    if (r.ok) return r.text;
    throw new UsageError(`cannot read ${file}: ${r.code === 'ENOTREG' || r.code === 'EFBIG' ? r.message.slice(r.message.indexOf(': ') + 2) : errnoText(r)}`);
  }
  if (command === '-') return io.readStdin();
  if (command === undefined) throw new UsageError('give a command to analyze (or --file FILE, or - for stdin)');
  return command;
}

/** `--cwd DIR` resolved against the process cwd; a missing or non-directory path is a usage error. */
function cwdOption(io: IO, dir: string): string {
  const cwd = resolve(io.cwd, dir);
  try {
    if (statSync(cwd).isDirectory()) return cwd;
  } catch (err) {
    throw new UsageError(`--cwd ${dir}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : errnoText(err)}`);
  }
  throw new UsageError(`--cwd ${dir}: not a directory`);
}

function parserChoice(v: string | undefined): BackendChoice | undefined {
  if (v === undefined) return undefined;
  if (v !== 'native' && v !== 'wasm' && v !== 'auto') throw new UsageError(`--parser must be native, wasm or auto (got ${v})`);
  return v;
}

export async function runProgram(argv: string[], given: IO): Promise<number> {
  const { program, result } = await defineProgram(given);
  if (argv.length === 0) {
    // Like most CLIs: no command is a usage error, the usage goes to stderr.
    given.stderr(program.helpInformation());
    return 2;
  }
  return result(await parseProgram(program, argv));
}

/**
 * The whole program, every command defined (what `--help`, the tests and the flags table of
 * docs/usage.md read), and `result`: the exit code once it has run.
 */
export async function defineProgram(given: IO): Promise<{ program: Command; result: (parsed: number | undefined) => number }> {
  let exitCode = 0;
  // Commander's own messages (usage errors, help) and the errors a command throws (main.ts) go to
  // `given`; what the commands print goes through `io`, which --quiet silences.
  const program = rootProgram(given);
  let quiet = false;
  // `--format json` of a command whose output is lines of text (install, demo ...): the lines,
  // collected here, are printed as one JSON document with the exit code (see jsonOfLines).
  let lines: string[] | null = null;
  const io: IO = { ...given, stdout: (t) => void (quiet || (lines ? lines.push(t) : given.stdout(t))), stderr: (t) => void (quiet || given.stderr(t)) };
  Object.defineProperty(io, 'isTTY', { get: () => given.isTTY });

  const setExit = (code: number): void => {
    exitCode = code;
  };
  registerHookAndCheck(program, io, setExit);
  registerExplainAndRules(program, io, setExit);
  registerInstall(program, io, setExit);
  registerDoctorAndLogs(program, io, setExit);

  const extra = await import('./extra-commands.js');
  extra.register(program, io, setExit);
  (await import('./layer-commands.js')).register(program, io, setExit);

  const corpus = program.commands.find((c) => c.name() === 'corpus')!;
  for (const c of [...program.commands, ...corpus.commands]) {
    if (c === corpus || ['hook', 'lint', '__lint-worker', '__flags-table'].includes(c.name())) continue;
    // Every command but the hook's (whose output is its answer) and lint's (its own entry).
    if (!c.options.some((o) => o.long === '--format')) addFormatOptions(c, TEXT_JSON, 'text');
    c.option('-q, --quiet', 'print nothing but errors (the exit code tells the result)');
  }
  program.hook('preAction', (_root, action) => {
    // lint's own --quiet keeps its errors (lint-command.ts); everywhere else it silences the output.
    if (action.name() !== 'lint' && action.opts().quiet === true) quiet = true;
    const opts = action.opts() as { format?: string; json?: boolean; agent?: string };
    const ownJson = action.parent?.name() !== 'corpus' && (['check', 'explain', 'rules', 'logs'].includes(action.name()) || (action.name() === 'doctor' && opts.agent === 'claude'));
    if (!ownJson && LINE_COMMANDS.has(action.name()) && chosenFormat(opts, TEXT_JSON, 'text') === 'json') lines = [];
  });

  const result = (parsed: number | undefined): number => {
    const code = parsed ?? exitCode;
    if (lines !== null && !quiet) given.stdout(jsonOfLines(lines, code));
    return code;
  };
  return { program, result };
}

/** `hook` (the CLI form of the hook; the installed hook takes main.ts's fast path) and `check`: the hook's answer for one command, explained. */
function registerHookAndCheck(program: Command, io: IO, setExit: (code: number) => void): void {
  program
    .command('hook')
    .description('PreToolUse hook: reads the agent client\'s event JSON on stdin, answers with a permission decision')
    .option('--exit-code', 'answer with exit code 2 and the reason on stderr instead of JSON')
    .option('--agent <client>', `the client's hook format: ${AGENT_NAMES.join(', ')}`, 'claude')
    .option('--unfinished <seconds>', 'answer as for an unanalyzable call, without parsing (bin/bashguard-hook uses it after stopping a run-away analysis)')
    .option('--keep-event <token>', 'keep the event for bin/bashguard-hook while analysing; with --unfinished, answer from the event kept under this token')
    .option('--time-limit <seconds>', `have the kernel end this process after that many seconds, whatever it is doing (bin/bashguard-hook; exit ${TIME_LIMIT_UNAVAILABLE} without reading anything when that is not possible here)`)
    .action(async (opts: { exitCode?: boolean; unfinished?: string; agent: string; keepEvent?: string; timeLimit?: string }) => {
      if (opts.timeLimit !== undefined) {
        const refused = armOrRefuse(opts.timeLimit, (t) => io.stderr(t));
        if (refused !== null) {
          setExit(refused);
          return;
        }
      }
      const client = clientByName(opts.agent);
      if (!client) throw new UsageError(`unknown --agent ${JSON.stringify(opts.agent)}; valid agents: ${AGENT_NAMES.join(', ')}`);
      const unfinished = opts.unfinished === undefined ? undefined : Number(opts.unfinished);
      if (unfinished !== undefined && !(unfinished > 0)) throw new UsageError(`--unfinished takes a number of seconds, got ${JSON.stringify(opts.unfinished)}`);
      const { runHook } = await import('../hook/hook.js');
      setExit(await runHook(io, { exitCode: Boolean(opts.exitCode), getParser: () => getParser(), unfinished, client, keepEvent: opts.keepEvent }));
    });

  program
    .command('check')
    .description('decide on a command as the hook would, with the explanation (exit 0 allow, 1 ask, deny or a command bash rejects, 2 error)')
    .argument('[command]', 'the bash command (or - for stdin)')
    .option('--cwd <dir>', 'directory the command runs in', io.cwd)
    .option('--file <file>', 'read the command from a file (- for stdin)')
    .option('--parser <backend>', 'native, wasm or auto')
    .option('--demo', 'run the built-in demonstration instead (same as `bashguard demo`)')
    .action(async (command: string | undefined, opts: { cwd: string; file?: string; json?: boolean; format?: string; parser?: string; demo?: boolean }) => {
      if (opts.demo) {
        setExit(await runDemo(io));
        return;
      }
      opts.json = chosenFormat(opts, TEXT_JSON, 'text') === 'json';
      const cwd = cwdOption(io, opts.cwd);
      const source = await readSource(io, command, opts.file);
      const parser = await getParser(parserChoice(opts.parser));
      const { workspace: scope, analysis, verdict } = withConfig(() => openWorkspace(cwd, { env: io.env }).check(parser, source));
      // What the hook answers where that is not the analysis' verdict: a command bash rejects
      // (decide.ts answerBash) runs nothing, or only the lines before the rejected one.
      let decision = verdict.decision;
      let note: string | null = null;
      if (!scope.skipped && verdict.findings.some((f) => f.rule === 'BG0001')) {
        const answer = await answerBash(scope, parser, source, cwd, io.env, verdict);
        if ((answer?.decision ?? 'allow') !== decision) {
          decision = answer?.decision ?? 'allow';
          note = answer ? answer.reason.split('\n').pop()! : 'bash rejects this command; what runs of it (nothing, or the whole lines before the rejected one) writes nothing outside the worktree';
        }
      }
      if (opts.json) {
        io.stdout(JSON.stringify({ decision, skipped: scope.skipped, root: scope.root, findings: verdict.findings, parser: parser.backend, ...(note ? { analysis: verdict.decision, bashRejects: true, note } : {}) }, null, 2) + '\n');
      } else {
        const s = style(io.isTTY && !io.env.NO_COLOR);
        if (scope.skipped) io.stdout(`${s.dim(`not enforcing: ${scope.skipped}`)}\n`);
        // One headline, the hook's answer; where bash rejects the command, that comes first (and the
        // exit code is 1: the command as given does not run as written), the analysis' findings below.
        if (note) io.stdout(`${s.bold(decision === 'allow' ? 'BASH REJECTS IT' : decision.toUpperCase())}: the hook answers ${decision.toUpperCase()}: ${note}\n${s.dim(`the analysis alone (${verdict.decision.toUpperCase()}):`)}\n`);
        io.stdout(visible(note ? formatVerdict(verdict, s, source).split('\n').slice(1).join('\n') : formatVerdict(verdict, s, source)) + '\n');
        if (analysis && verdict.findings.length === 0 && !scope.skipped) io.stdout(s.dim(`  ${analysis.effects.length} effect(s) analyzed, all inside ${scope.root} or a write root\n`));
      }
      setExit(decision === 'allow' && !note ? 0 : 1);
    });
}

/** `explain` (every stage of the analysis), `demo` and `rules`. */
function registerExplainAndRules(program: Command, io: IO, setExit: (code: number) => void): void {
  program
    .command('explain')
    .description('print the syntax IR, the cwd timeline, every effect with its confidence and evidence, and the decision')
    .argument('[command]', 'the bash command (or - for stdin)')
    .option('--cwd <dir>', 'directory the command runs in', io.cwd)
    .option('--file <file>', 'read the command from a file (- for stdin)')
    .option('--parser <backend>', 'native, wasm or auto')
    .action(async (command: string | undefined, opts: { cwd: string; file?: string; json?: boolean; format?: string; parser?: string }) => {
      opts.json = chosenFormat(opts, TEXT_JSON, 'text') === 'json';
      const cwd = cwdOption(io, opts.cwd);
      const source = await readSource(io, command, opts.file);
      const parser = await getParser(parserChoice(opts.parser));
      const { workspace: scope, analysis, verdict } = withConfig(() => openWorkspace(cwd, { env: io.env }).check(parser, source));
      const a = analysis!;
      if (opts.json) {
        io.stdout(JSON.stringify({
          cwd,
          parser: a.backend,
          root: scope.root,
          skipped: scope.skipped,
          ir: a.script?.body ?? null,
          commands: a.commands,
          timeline: a.timeline,
          effects: effectsToJson(a.effects),
          decision: verdict.decision,
          findings: verdict.findings,
        }, null, 2) + '\n');
      } else {
        const s = style(io.isTTY && !io.env.NO_COLOR);
        const context = `cwd ${cwd}; ${scope.skipped ? `not enforcing (${scope.skipped})` : `worktree root ${scope.root}`}`;
        io.stdout(visible(formatExplain(a, scope.skipped ? null : verdict, s, context)));
      }
    });

  program
    .command('demo')
    .description('build a scratch repository with a nested worktree and show real escapes being caught')
    .action(async () => {
      setExit(await runDemo(io));
    });

  program
    .command('rules')
    .description('list the rules, or print one rule\'s documentation')
    .argument('[rule]', 'a rule id (BG1002) or name (write-to-main-checkout)')
    .action((rule: string | undefined, opts: { json?: boolean; format?: string }) => {
      opts.json = chosenFormat(opts, TEXT_JSON, 'text') === 'json';
      if (rule) {
        const id = resolveRuleRef(rule);
        if (!id) throw new UsageError(`unknown rule ${rule} (run \`bashguard rules\` for the list)`);
        const r = ruleById(id);
        io.stdout(opts.json ? JSON.stringify(r, null, 2) + '\n' : `${r.id} ${r.name} (${r.severity})\n${r.summary}\n\n${r.docs}\n`);
        return;
      }
      if (opts.json) io.stdout(JSON.stringify(RULES.map(({ id, name, severity, summary }) => ({ id, name, severity, summary })), null, 2) + '\n');
      else for (const r of RULES) io.stdout(`${r.id}  ${r.name.padEnd(32)} ${r.severity.padEnd(8)} ${r.summary}\n`);
    });
}

/** `install` and `uninstall` of the hook in an agent client's settings. */
function registerInstall(program: Command, io: IO, setExit: (code: number) => void): void {
  program
    .command('install')
    .description('add the hook to Claude Code settings (idempotent; keeps every other setting)')
    .addOption(new Option('--user', 'install in ~/.claude/settings.json').conflicts('project'))
    .option('--project', 'install in <project>/.claude/settings.json (default)')
    .addOption(new Option('--managed', "install in Claude Code's managed settings (/etc/claude-code/managed-settings.json; macOS: /Library/Application Support/ClaudeCode/), which no lower layer overrides").conflicts(['user', 'project']))
    .option('--managed-hooks-only', 'with --managed: also set allowManagedHooksOnly (hooks of user, project and local settings stop running)')
    .option('--managed-path <file>', 'with --managed: write this file instead of the system managed settings')
    .option('--dry-run', 'print the resulting settings instead of writing them')
    .option('--agent <client>', `the agent client: ${AGENT_NAMES.join(', ')}`, 'claude')
    .addOption(
      new Option('--hook-form <form>', 'Claude Code: `direct` has the client run node itself (exec form, Claude Code 2.1.295 or later), `shell` runs the supervisor script through its shell, `auto` picks direct when the claude on PATH is new enough')
        .choices(['auto', 'direct', 'shell'])
        .default('auto'),
    )
    .addOption(new Option('--enforce <mechanism>', "Claude Code: `client` sets up Claude Code's own sandbox as the enforcement of every Bash call (with --user or --managed) and \"enforce\": \"client\" in bashguard's user config").choices(['client']))
    .action(async (opts: { user?: boolean; project?: boolean; managed?: boolean; managedHooksOnly?: boolean; managedPath?: string; dryRun?: boolean; agent: string; hookForm: ClaudeHookForm; enforce?: 'client' }) => {
      if (opts.enforce && agentOf(opts.agent) !== 'claude') throw new UsageError(`--enforce client is for Claude Code only, not ${opts.agent}`);
      if ((opts.managedHooksOnly || opts.managedPath) && !opts.managed) throw new UsageError('--managed-hooks-only and --managed-path go with --managed');
      if (opts.managed) {
        if (agentOf(opts.agent) !== 'claude') throw new UsageError(`--managed is for Claude Code only, not ${opts.agent}`);
        if (opts.managedPath !== undefined && !opts.managedPath.startsWith('/')) throw new UsageError(`--managed-path takes an absolute path, got ${JSON.stringify(opts.managedPath)}`);
        setExit(runInstall(io, { scope: 'managed', dryRun: Boolean(opts.dryRun), hookForm: opts.hookForm, managedHooksOnly: Boolean(opts.managedHooksOnly), managedPath: opts.managedPath, enforce: opts.enforce }));
        return;
      }
      if (agentOf(opts.agent) !== 'claude' && opts.hookForm !== 'auto') throw new UsageError(`--hook-form is for Claude Code only, not ${opts.agent}`);
      if (opts.enforce && !opts.user) throw new UsageError("--enforce client goes with --user or --managed: the project settings are the agent's checkout's, and Claude Code lets them turn its sandbox off");
      if (!opts.user) (await import('./install-scope.js')).projectInstallCheck(io, opts.agent, Boolean(opts.project), Boolean(opts.dryRun));
      if (opts.agent !== 'claude') {
        setExit((await import('./install-agents.js')).runAgentInstall(io, opts.agent, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun) }));
        return;
      }
      setExit(runInstall(io, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun), hookForm: opts.hookForm, enforce: opts.enforce }));
    });

  program
    .command('uninstall')
    .description('remove the hook from Claude Code settings')
    .addOption(new Option('--user', 'from ~/.claude/settings.json').conflicts('project'))
    .option('--project', 'from <project>/.claude/settings.json (default)')
    .addOption(new Option('--managed', "from Claude Code's managed settings").conflicts(['user', 'project']))
    .option('--managed-path <file>', 'with --managed: this file instead of the system managed settings')
    .option('--dry-run', 'print the resulting settings instead of writing them')
    .option('--agent <client>', `the agent client: ${AGENT_NAMES.join(', ')}`, 'claude')
    .action(async (opts: { user?: boolean; managed?: boolean; managedPath?: string; dryRun?: boolean; agent: string }) => {
      if (opts.managedPath && !opts.managed) throw new UsageError('--managed-path goes with --managed');
      if (opts.managed) {
        if (agentOf(opts.agent) !== 'claude') throw new UsageError(`--managed is for Claude Code only, not ${opts.agent}`);
        setExit(runUninstall(io, { scope: 'managed', dryRun: Boolean(opts.dryRun), managedPath: opts.managedPath }));
        return;
      }
      const scope = opts.user ? 'user' : 'project';
      if (agentOf(opts.agent) !== 'claude') setExit((await import('./install-agents.js')).runAgentUninstall(io, opts.agent, { scope, dryRun: Boolean(opts.dryRun) }));
      else setExit(runUninstall(io, { scope, dryRun: Boolean(opts.dryRun) }));
      const left = scope === 'project' && !opts.dryRun ? (await import('./install-scope.js')).userHookLeft(io, opts.agent) : null;
      if (left) io.stdout(`note: bashguard's hook in ${left} stays active for every checkout, this one included (\`bashguard uninstall${opts.agent === 'claude' ? '' : ` --agent ${opts.agent}`} --user\` removes it)\n`);
    });
}

/** `doctor` and `logs`. */
function registerDoctorAndLogs(program: Command, io: IO, setExit: (code: number) => void): void {
  program
    .command('doctor')
    .description('check the installation, both parsers and the hook, with a self-test')
    .option('--agent <client>', `check this agent client's hook config: ${AGENT_NAMES.join(', ')}`, 'claude')
    .action(async (opts: { agent: string; format?: string; json?: boolean }) => {
      if (agentOf(opts.agent) !== 'claude') {
        setExit((await import('./install-agents.js')).runAgentDoctor(io, opts.agent));
        return;
      }
      setExit(await runDoctor(io, chosenFormat(opts, TEXT_JSON, 'text') === 'json'));
    });

  program
    .command('logs')
    .description('print the decision log: every ask/deny of the hook, newest last (unattended sessions)')
    .option('--since <when>', 'only decisions since a duration ago (30m, 2h, 7d) or an ISO time')
    .action(async (opts: { since?: string; json?: boolean; format?: string }) => {
      opts.json = chosenFormat(opts, TEXT_JSON, 'text') === 'json';
      const { runLogs } = await import('./logs.js');
      setExit(runLogs(io, opts));
    });
}

/** The commands whose output is lines of text: `--format json` gives them as jsonOfLines. */
const LINE_COMMANDS = new Set(['install', 'uninstall', 'doctor', 'demo', 'add', 'check']);

/** `{"exitCode": N, "lines": [...]}`: a line-oriented command's output as one JSON document. */
function jsonOfLines(chunks: string[], exitCode: number): string {
  const text = chunks.join('').replace(/\n$/, '');
  return JSON.stringify({ exitCode, lines: text === '' ? [] : text.split('\n') }, null, 2) + '\n';
}

function agentOf(name: string): string {
  if (!clientByName(name)) throw new UsageError(`unknown --agent ${JSON.stringify(name)}; valid agents: ${AGENT_NAMES.join(', ')}`);
  return name;
}

function withConfig<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`invalid configuration: ${err.message}`);
    throw err;
  }
}
