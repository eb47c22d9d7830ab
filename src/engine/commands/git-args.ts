/**
 * Reading git's own arguments: flags, operands, option values, and the invocation's target (the
 * directory, git dir, work tree, one-run config and the subcommand), shared by the git families.
 */
import type { Field } from '../shell/field.js';
import type { CwdValue } from '../shell/state.js';

export interface Target {
  dir: CwdValue;
  /** `-c key=value` / `--config-env=key=VAR` / GIT_CONFIG_KEY_n: configuration for this run only. */
  config: Array<{ key: string; value: Field }>;
  gitDir: Field | null;
  workTree: Field | null;
  sub: string | null;
  args: Field[];
  /** A global option that may change how git finds the command (--exec-path, --git-dir, --bare ...). */
  lookupOptions: boolean;
}

export function has(args: Field[], ...flags: string[]): boolean {
  return args.some((a) => flags.includes(a.value) || flags.some((f) => f.startsWith('--') && a.value.startsWith(f + '=')));
}

/** `-n` alone or in a cluster of the subcommand's short flags (`git clean -nd`), or `--dry-run`, before any `--`. */
export function dryRun(args: Field[], shortFlags: string): boolean {
  const cluster = new RegExp(`^-[${shortFlags}]*n[${shortFlags}]*$`);
  for (const a of args) {
    if (a.value === '--') return false;
    if (a.value === '--dry-run' || cluster.test(a.value)) return true;
  }
  return false;
}

export function operands(args: Field[]): Field[] {
  return args.filter((a) => !a.value.startsWith('-'));
}

/**
 * The value of the first of `names` in `args`: `-o VALUE`, `--output=VALUE`, `-oVALUE`; null
 * when none is given.
 */
export function optionValue(args: Field[], ...names: string[]): Field | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    for (const n of names) {
      if (a === n && args[i + 1]) return args[i + 1]!;
      if (n.startsWith('--') && a.startsWith(n + '=')) return { ...args[i]!, value: a.slice(n.length + 1) };
      if (!n.startsWith('--') && a.startsWith(n) && a.length > n.length) return { ...args[i]!, value: a.slice(n.length) };
    }
  }
  return null;
}

export function shellQuote(v: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/**
 * The operands of a git subcommand's arguments: options skipped (with the value of those in
 * `withValue`), everything after `--` kept. Works on expanded fields or on plain strings.
 */
export function operandsSkipping<T extends Field | string>(args: T[], withValue: readonly string[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const a = typeof arg === 'string' ? arg : arg.value;
    if (a === '--') {
      out.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('-')) {
      if (withValue.includes(a)) i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

