/**
 * The layers around the hook (issue #14): `env`, `sandbox` (and `sandbox run`), `audit`, `prompt`.
 * Each only formats what its library function in src/layers/env, src/layers/sandbox, src/layers/audit, src/layers/prompt
 * returns; every one starts from the workspace model (openWorkspace).
 */
import type { Command } from 'commander';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type IO } from '../io.js';
import { chosenFormat } from './format-option.js';
import { openWorkspace, type Workspace } from '../../policy/workspace/index.js';
import { ConfigError } from '../../policy/config.js';
import { LayerError } from '../../layers/env/env.js';

type SetExit = (code: number) => void;


function open(io: IO, dir: string | undefined): Workspace {
  const path = resolve(io.cwd, dir ?? '.');
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw new UsageError(`-C ${dir ?? '.'}: no such directory`);
  if (!stat.isDirectory()) throw new UsageError(`-C ${dir ?? '.'}: not a directory`);
  try {
    return openWorkspace(resolve(io.cwd, dir ?? '.'), { env: io.env });
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(`invalid configuration: ${err.message}`);
    throw err;
  }
}

/** Runs a layer's body, turning its LayerError into the CLI's one-line error (exit 2). */
async function layer(f: () => Promise<void> | void): Promise<void> {
  try {
    await f();
  } catch (err) {
    if (err instanceof LayerError) throw new UsageError(err.message);
    throw err;
  }
}

export function register(program: Command, io: IO, setExit: SetExit): void {
  program
    .command('env')
    .description('print GIT_DIR, GIT_WORK_TREE and GIT_CEILING_DIRECTORIES that pin git to this worktree (for the builder\'s environment)')
    .option('-f, --format <format>', 'shell or json (default: shell)')
    .option('--json', 'same as --format json')
    .option('-C, --dir <dir>', 'the worktree (default: the current directory)')
    .action((opts: { format?: string; json?: boolean; dir?: string }) =>
      layer(async () => {
        const fmt = chosenFormat(opts, ['shell', 'json'] as const, 'shell');
        const { gitEnv, formatGitEnv } = await import('../../layers/env/index.js');
        io.stdout(formatGitEnv(gitEnv(open(io, opts.dir)), fmt));
      }),
    );

  const sandbox = program
    .command('sandbox')
    .description('print the OS-sandbox grants for this worktree: json, bwrap arguments or a sandbox-exec profile')
    .option('-f, --format <format>', 'json, bwrap or sandbox-exec (default: json)')
    .option('--json', 'same as --format json')
    .option('-C, --dir <dir>', 'the worktree (default: the current directory)')
    .enablePositionalOptions()
    .action((opts: { format?: string; json?: boolean; dir?: string }) =>
      layer(async () => {
        const fmt = chosenFormat(opts, ['json', 'bwrap', 'sandbox-exec'] as const, 'json');
        const { sandboxPlan, bwrapArgs, seatbeltProfile, shellJoin } = await import('../../layers/sandbox/index.js');
        const ws = open(io, opts.dir);
        const plan = sandboxPlan(ws);
        if (fmt === 'json') io.stdout(JSON.stringify(plan, null, 2) + '\n');
        else if (fmt === 'sandbox-exec') io.stdout(seatbeltProfile(plan));
        else io.stdout(shellJoin(['bwrap', ...bwrapArgs(plan, [], { cwd: ws.cwd, root: process.getuid?.() === 0 }).slice(0, -1)]) + ' -- CMD...\n');
        if (plan.unreserved.length) io.stderr(`bashguard: note: not reserved (they do not exist, and a sandbox cannot bind a name without creating it; the hook and \`bashguard audit\` still watch them): ${plan.unreserved.join(', ')}\n`);
      }),
    );
  sandbox
    .command('run')
    .description('run a command under bubblewrap with the worktree\'s grants (exit: the command\'s; 2 when the sandbox cannot start)')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('-C, --dir <dir>', 'the worktree whose grants apply (default: the current directory)')
    // Everything from the command on is the command's, options included (`sandbox run git commit -m x`).
    .passThroughOptions()
    .action((command: string[], opts: { dir?: string }) =>
      layer(async () => {
        const { runSandboxed } = await import('../../layers/sandbox/index.js');
        const ws = open(io, opts.dir);
        const r = runSandboxed(ws, command, { env: io.env, cwd: io.cwd });
        if (r.status === null) throw new UsageError(`sandbox: ${r.error}`);
        setExit(r.status);
      }),
    );

  program
    .command('audit')
    .description('after a builder ran: what changed outside its worktree (other checkouts, shared config, hooks, refs); exit 1 on changes')
    .option('--baseline <action>', 'save: record the current state as the baseline (before the builder starts) and exit')
    .option('-f, --format <format>', 'text or json (default: text)')
    .option('--json', 'same as --format json')
    .option('--write-root <path>', 'a declared write root for the worktree\'s own diff (repeatable; relative to the worktree)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--base <rev>', 'the commit the worktree\'s diff is taken against (default: its HEAD when the baseline was saved)')
    .option('--baseline-file <file>', 'where the baseline is kept (default: the user\'s state dir, keyed by repository and worktree)')
    .option('-C, --dir <dir>', 'the worktree (default: the current directory)')
    .action((opts: { baseline?: string; format: string; writeRoot: string[]; base?: string; baselineFile?: string; dir?: string }) =>
      layer(async () => {
        const fmt = chosenFormat(opts, ['text', 'json'] as const, 'text');
        if (opts.baseline !== undefined && opts.baseline !== 'save') throw new UsageError(`--baseline takes save (got ${opts.baseline})`);
        const { audit, saveBaseline, formatAudit } = await import('../../layers/audit/index.js');
        const ws = open(io, opts.dir);
        const baselineFile = opts.baselineFile ? resolve(io.cwd, opts.baselineFile) : undefined;
        if (opts.baseline === 'save') {
          const { file, snapshot } = saveBaseline(ws, io.env, baselineFile);
          if (fmt === 'json') io.stdout(JSON.stringify({ saved: file, snapshot }, null, 2) + '\n');
          else io.stdout(`bashguard audit: baseline for ${snapshot.worktree} saved to ${file}\n`);
          return;
        }
        const report = audit(ws, { env: io.env, baselineFile, writeRoots: opts.writeRoot, base: opts.base });
        io.stdout(fmt === 'json' ? JSON.stringify(report, null, 2) + '\n' : formatAudit(report));
        setExit(report.findings.length ? 1 : 0);
      }),
    );

  program
    .command('prompt')
    .description('print the worktree rules for a builder\'s prompt or role doc (the worktree root, the main checkout it must not use, what bashguard blocks)')
    .option('-f, --format <format>', 'text or json (default: text)')
    .option('--json', 'same as --format json')
    .option('-C, --dir <dir>', 'the worktree (default: the current directory)')
    .action((opts: { format?: string; json?: boolean; dir?: string }) =>
      layer(async () => {
        const fmt = chosenFormat(opts, ['text', 'json'] as const, 'text');
        const { promptGuidance, formatPrompt } = await import('../../layers/prompt/index.js');
        io.stdout(formatPrompt(promptGuidance(open(io, opts.dir)), fmt));
      }),
    );
}
