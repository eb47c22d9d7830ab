/**
 * The commander program for everything but the hook's fast path. Each command only formats what
 * the engine (src/workspace, src/analyze.ts) returns.
 */
import { Option } from 'commander';
import { parseProgram, rootProgram } from './root.js';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type IO } from '../frontends/io.js';
import { getParser, type BackendChoice } from '../parse/index.js';
import { openWorkspace } from '../workspace/index.js';
import { ConfigError } from '../policy/config.js';
import { formatExplain, formatVerdict, style } from './format.js';
import { RULES, resolveRuleRef, ruleById } from '../rules/catalog.js';
import { runDemo } from './demo.js';
import { runInstall, runUninstall, runDoctor, type ClaudeHookForm } from './install.js';
import { effectsToJson } from './json.js';
import { AGENT_NAMES, clientByName } from '../hook/clients/index.js';
import { armOrRefuse, TIME_LIMIT_UNAVAILABLE } from '../util/time-limit.js';

async function readSource(io: IO, command: string | undefined, file: string | undefined): Promise<string> {
  if (file) {
    try {
      return file === '-' ? await io.readStdin() : readFileSync(resolve(io.cwd, file), 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
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
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`--cwd ${dir}: ${code === 'ENOENT' ? 'no such directory' : code ?? (err as Error).message}`);
  }
  throw new UsageError(`--cwd ${dir}: not a directory`);
}

function parserChoice(v: string | undefined): BackendChoice | undefined {
  if (v === undefined) return undefined;
  if (v !== 'native' && v !== 'wasm' && v !== 'auto') throw new UsageError(`--parser must be native, wasm or auto (got ${v})`);
  return v;
}

export async function runProgram(argv: string[], io: IO): Promise<number> {
  let exitCode = 0;
  const program = rootProgram(io);

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
          exitCode = refused;
          return;
        }
      }
      const client = clientByName(opts.agent);
      if (!client) throw new UsageError(`--agent must be one of ${AGENT_NAMES.join(', ')} (got ${JSON.stringify(opts.agent)})`);
      const unfinished = opts.unfinished === undefined ? undefined : Number(opts.unfinished);
      if (unfinished !== undefined && !(unfinished > 0)) throw new UsageError(`--unfinished takes a number of seconds, got ${JSON.stringify(opts.unfinished)}`);
      const { runHook } = await import('../hook/hook.js');
      exitCode = await runHook(io, { exitCode: Boolean(opts.exitCode), getParser: () => getParser(), unfinished, client, keepEvent: opts.keepEvent });
    });

  program
    .command('check')
    .description('decide on a command as the hook would, with the explanation (exit 0 allow, 1 ask or deny, 2 error)')
    .argument('[command]', 'the bash command (or - for stdin)')
    .option('--cwd <dir>', 'directory the command runs in', io.cwd)
    .option('-f, --file <file>', 'read the command from a file')
    .option('--json', 'print JSON')
    .option('--parser <backend>', 'native, wasm or auto')
    .option('--demo', 'run the built-in demonstration instead (same as `bashguard demo`)')
    .action(async (command: string | undefined, opts: { cwd: string; file?: string; json?: boolean; parser?: string; demo?: boolean }) => {
      if (opts.demo) {
        exitCode = await runDemo(io);
        return;
      }
      const cwd = cwdOption(io, opts.cwd);
      const source = await readSource(io, command, opts.file);
      const parser = await getParser(parserChoice(opts.parser));
      const { workspace: scope, analysis, verdict } = withConfig(() => openWorkspace(cwd, { env: io.env }).check(parser, source));
      if (opts.json) {
        io.stdout(JSON.stringify({ decision: verdict.decision, skipped: scope.skipped, root: scope.root, findings: verdict.findings, parser: parser.backend }, null, 2) + '\n');
      } else {
        const s = style(io.isTTY && !io.env.NO_COLOR);
        if (scope.skipped) io.stdout(`${s.dim(`not enforcing: ${scope.skipped}`)}\n`);
        io.stdout(formatVerdict(verdict, s, source) + '\n');
        if (analysis && verdict.findings.length === 0 && !scope.skipped) io.stdout(s.dim(`  ${analysis.effects.length} effect(s) analyzed, all inside ${scope.root} or a write root\n`));
      }
      exitCode = verdict.decision === 'allow' ? 0 : 1;
    });

  program
    .command('explain')
    .description('print the syntax IR, the cwd timeline, every effect with its confidence and evidence, and the decision')
    .argument('[command]', 'the bash command (or - for stdin)')
    .option('--cwd <dir>', 'directory the command runs in', io.cwd)
    .option('-f, --file <file>', 'read the command from a file')
    .option('--json', 'print JSON')
    .option('--parser <backend>', 'native, wasm or auto')
    .action(async (command: string | undefined, opts: { cwd: string; file?: string; json?: boolean; parser?: string }) => {
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
        io.stdout(formatExplain(a, scope.skipped ? null : verdict, s, context));
      }
    });

  program
    .command('demo')
    .description('build a scratch repository with a nested worktree and show real escapes being caught')
    .action(async () => {
      exitCode = await runDemo(io);
    });

  program
    .command('rules')
    .description('list the rules, or print one rule\'s documentation')
    .argument('[rule]', 'a rule id (BG1002) or name (write-to-main-checkout)')
    .option('--json', 'print JSON')
    .action((rule: string | undefined, opts: { json?: boolean }) => {
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

  program
    .command('install')
    .description('add the hook to Claude Code settings (idempotent; keeps every other setting)')
    .addOption(new Option('--user', 'install in ~/.claude/settings.json').conflicts('project'))
    .option('--project', 'install in <project>/.claude/settings.json (default)')
    .option('--dry-run', 'print the resulting settings instead of writing them')
    .option('--agent <client>', `the agent client: ${AGENT_NAMES.join(', ')}`, 'claude')
    .addOption(
      new Option('--hook-form <form>', 'Claude Code: `direct` has the client run node itself (exec form, Claude Code 2.1.295 or later), `shell` runs the supervisor script through its shell, `auto` picks direct when the claude on PATH is new enough')
        .choices(['auto', 'direct', 'shell'])
        .default('auto'),
    )
    .action(async (opts: { user?: boolean; project?: boolean; dryRun?: boolean; agent: string; hookForm: ClaudeHookForm }) => {
      if (agentOf(opts.agent) !== 'claude') {
        if (opts.hookForm !== 'auto') throw new UsageError(`--hook-form is for Claude Code only, not ${opts.agent}`);
        exitCode = (await import('./install-agents.js')).runAgentInstall(io, opts.agent, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun) });
        return;
      }
      exitCode = runInstall(io, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun), hookForm: opts.hookForm });
    });

  program
    .command('uninstall')
    .description('remove the hook from Claude Code settings')
    .addOption(new Option('--user', 'from ~/.claude/settings.json').conflicts('project'))
    .option('--project', 'from <project>/.claude/settings.json (default)')
    .option('--dry-run', 'print the resulting settings instead of writing them')
    .option('--agent <client>', `the agent client: ${AGENT_NAMES.join(', ')}`, 'claude')
    .action(async (opts: { user?: boolean; dryRun?: boolean; agent: string }) => {
      if (agentOf(opts.agent) !== 'claude') {
        exitCode = (await import('./install-agents.js')).runAgentUninstall(io, opts.agent, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun) });
        return;
      }
      exitCode = runUninstall(io, { scope: opts.user ? 'user' : 'project', dryRun: Boolean(opts.dryRun) });
    });

  program
    .command('doctor')
    .description('check the installation, both parsers and the hook, with a self-test')
    .option('--agent <client>', `check this agent client's hook config: ${AGENT_NAMES.join(', ')}`, 'claude')
    .action(async (opts: { agent: string }) => {
      if (agentOf(opts.agent) !== 'claude') {
        exitCode = (await import('./install-agents.js')).runAgentDoctor(io, opts.agent);
        return;
      }
      exitCode = await runDoctor(io);
    });

  program
    .command('logs')
    .description('print the decision log: every ask/deny of the hook, newest last (unattended sessions)')
    .option('--since <when>', 'only decisions since a duration ago (30m, 2h, 7d) or an ISO time')
    .option('--json', 'print one JSON object per line')
    .action(async (opts: { since?: string; json?: boolean }) => {
      const { runLogs } = await import('./logs.js');
      exitCode = runLogs(io, opts);
    });

  const extra = await import('./extra-commands.js');
  extra.register(program, io, (code) => {
    exitCode = code;
  });
  (await import('./layer-commands.js')).register(program, io, (code) => {
    exitCode = code;
  });

  if (argv.length === 0) {
    // Like most CLIs: no command is a usage error, the usage goes to stderr.
    io.stderr(program.helpInformation());
    return 2;
  }
  return (await parseProgram(program, argv)) ?? exitCode;
}

function agentOf(name: string): string {
  if (!clientByName(name)) throw new UsageError(`--agent must be one of ${AGENT_NAMES.join(', ')} (got ${JSON.stringify(name)})`);
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
