/**
 * The root of bashguard's commander program, shared by the full CLI (./program.ts) and lint's own
 * entry (src/frontends/cli/lint-main.ts, which registers only `lint`): the same name, version, output and
 * error handling either way.
 */
import { Command, CommanderError } from 'commander';
import type { IO } from '../io.js';
import { packageVersion } from '../../util/package-root.js';

export function rootProgram(io: IO): Command {
  return (
    new Command()
      .name('bashguard')
      .description('Keeps AI coding agents\' shell commands and file edits inside their git worktree.')
      .version(packageVersion(), '-v, --version')
      .exitOverride()
      .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
      .showHelpAfterError('(run bashguard --help for usage)')
      // `sandbox run CMD...` passes CMD's own options through (needs positional options up the chain).
      .enablePositionalOptions()
  );
}

/**
 * Runs `program` on `argv` (the words after `bashguard`). Returns 0 after help or the version, 2
 * after a usage error commander reported, else undefined (the command's own exit code stands).
 */
export async function parseProgram(program: Command, argv: readonly string[]): Promise<number | undefined> {
  try {
    // -V is accepted too (commander's default spelling, which older docs used).
    await program.parseAsync(['node', 'bashguard', ...(argv.length === 1 && argv[0] === '-V' ? ['-v'] : argv)]);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      return 2;
    }
    throw err;
  }
  return undefined;
}
