/**
 * One output-format convention for every subcommand: `-f, --format <name>`, with `--json` as the
 * alias of `--format json`; both given and different is a usage error. The default is applied
 * here, not by commander, so that an explicit `--format text --json` is told apart from `--json`.
 */
import type { Command } from 'commander';
import { UsageError } from '../io.js';

export function addFormatOptions(cmd: Command, allowed: readonly string[], dflt: string): Command {
  return cmd.option('-f, --format <format>', `${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]} (default: ${dflt})`).option('--json', 'same as --format json');
}

export function chosenFormat<T extends string>(opts: { format?: string; json?: boolean }, allowed: readonly T[], dflt: T): T {
  if (opts.json && opts.format !== undefined && opts.format !== 'json') throw new UsageError(`--json and --format ${opts.format} disagree (--json is --format json)`);
  const value = opts.json ? 'json' : (opts.format ?? dflt);
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--format must be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]} (got ${value})`);
  return value as T;
}
