/**
 * Commands that load heavier modules (lint, corpus): registered here and imported lazily by
 * their actions, so `check`/`explain` do not pay for them.
 */
import type { Command } from 'commander';
import type { IO } from '../io.js';
import { registerLint } from './lint-command.js';

export function register(program: Command, io: IO, setExit: (code: number) => void): void {
  // lint and corpus register here.
  registerLint(program, io, setExit);
  registerCorpus(program, io, setExit);
}

function registerCorpus(program: Command, io: IO, setExit: (code: number) => void): void {
  const corpus = program.command('corpus').description('the labelled corpus of commands (corpus/*.yaml): add and check cases');
  corpus
    .command('add')
    .description('append a one-line case with the rules bashguard finds now, for review')
    .argument('<command>', 'the bash command (or the path, with --tool Edit|Write|...)')
    .requiredOption('--expect <decision>', 'allow, ask or deny: what the hook should decide')
    .option('--file <file>', 'the corpus file to append to (default: corpus/added.yaml)')
    .option('--cwd <dir>', 'the cwd in the standard layout (absolute, or relative to the worktree)')
    .option('--tool <tool>', 'Bash (default), Edit, Write, MultiEdit or NotebookEdit')
    .option('--note <text>', 'a note stored with the case')
    .action(async (command: string, opts: { expect: string; file?: string; cwd?: string; tool?: string; note?: string }) => {
      const { corpusAdd } = await import('../corpus/cli.js');
      setExit(await corpusAdd(io, command, opts));
    });
  corpus
    .command('check')
    .description('run corpus cases and print failures with a diff (exit 1 on any failure)')
    .argument('[files...]', 'corpus files (default: every corpus/*.yaml)')
    .option('-v, --verbose', 'also list passing cases')
    .action(async (files: string[], opts: { verbose?: boolean }) => {
      const { corpusCheck } = await import('../corpus/cli.js');
      setExit(await corpusCheck(io, files, opts));
    });
}
