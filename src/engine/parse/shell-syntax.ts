/**
 * What the shell that will run a command says of its syntax, for commands tree-sitter could not
 * read (BG0001). bash reads a command string one complete command at a time and stops at the first
 * syntax error: what comes before it runs, nothing from it on does (`bash -c`, and `eval`, which
 * Claude Code wraps every command in: 2.1.330's shipped cli runs `eval '<command>' && pwd -P >|
 * <file>`). So a command whose first line bash rejects runs nothing at all, and one it rejects
 * further down runs exactly the complete commands before the line: the hook judges those.
 *
 * Only bash is asked (zsh's grammar differs: a zsh client shell keeps the BG0001 answer). The
 * parse is checked twice, without and with extglob (the one shell option that changes bash's
 * grammar; a user's start-up files, which the client's shell snapshot replays, may set it): a line
 * counts as rejected only when both reject it.
 */
import { spawnSync } from 'node:child_process';

/** Commands longer than this are not checked (the answer stays BG0001's): one argument's limit is 128 KiB on Linux (MAX_ARG_STRLEN). */
const MAX_CHECKED = 100 * 1024;

export type ShellSyntax = { kind: 'accepts' } | { kind: 'rejects'; line: number } | { kind: 'unknown' };

/**
 * What `bash -n` (parse, run nothing) says of `command`: it accepts it (with and without extglob),
 * or rejects it from `line` on (1-based; the later of the two, so that every line that may run lies
 * before it), or cannot be asked (not bash, missing, timed out, no line given).
 */
export function shellSyntax(shell: string, command: string): ShellSyntax {
  if (!/(^|\/)bash$/.test(shell) || command.length > MAX_CHECKED || command.includes('\0')) return { kind: 'unknown' };
  const lines = [false, true].map((extglob) => rejectedLine(shell, command, extglob));
  if (lines.every((l) => l === 0)) return { kind: 'accepts' };
  if (lines.some((l) => l === null || l === 0)) return { kind: 'unknown' };
  return { kind: 'rejects', line: Math.max(...(lines as number[])) };
}

/** The first line bash rejects, 0 where it accepts the text, null where it cannot tell. */
function rejectedLine(shell: string, command: string, extglob: boolean): number | null {
  // As `bash -c` reads it (line numbers in the messages); no start-up file (BASH_ENV is not
  // passed), C messages.
  const r = spawnSync(shell, [...(extglob ? ['-O', 'extglob'] : []), '-n', '-c', command], {
    encoding: 'utf8',
    timeout: 2000,
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.error || r.signal || r.status === null) return null;
  // A here-document cut off by the end of the text is a warning (status 0), but its body lies in
  // what was cut: not a text bash reads whole.
  if (r.status === 0) return /here-document at line/.test(r.stderr ?? '') ? null : 0;
  let first: number | null = null;
  for (const m of (r.stderr ?? '').matchAll(/: -c: line (\d+): /g)) {
    const n = Number(m[1]);
    if (first === null || n < first) first = n;
  }
  return first;
}

/**
 * What of `command` bash runs, for a text tree-sitter could not read: bash stops at the first
 * syntax error, and the complete commands before the line it was reading run, nothing after.
 * Those are the lines of the longest prefix bash accepts whole, ending before the rejected line
 * (an error at the end of the text, an unclosed `do`/`fi`/quote, names the line after the last).
 * - `whole`: bash accepts the whole text (or cannot tell): what tree-sitter said stays;
 * - `nothing`: no prefix is accepted, so nothing runs (bash fails with a syntax error);
 * - `prefix`: `text` (its first `lines` lines) runs, bash rejects line `rejected`;
 * - `unknown`: bash cannot be asked, or more than `maxPrefixes` prefixes would have to be tried.
 */
export type BashRuns = { kind: 'whole' | 'nothing' | 'unknown' } | { kind: 'prefix'; text: string; lines: number; rejected: number };

/** How many prefixes of a command bash rejects are tried (two `bash -n` each). */
export const MAX_PREFIXES = 8;

export function bashRuns(shell: string, command: string, maxPrefixes = MAX_PREFIXES): BashRuns {
  const syntax = shellSyntax(shell, command);
  if (syntax.kind === 'unknown') return { kind: 'unknown' };
  if (syntax.kind === 'accepts') return { kind: 'whole' };
  const lines = command.split('\n');
  const last = Math.min(syntax.line, lines.length) - 1;
  for (let k = last; k >= 1 && k > last - maxPrefixes; k--) {
    const text = lines.slice(0, k).join('\n');
    const s = shellSyntax(shell, text);
    if (s.kind === 'unknown') return { kind: 'unknown' };
    if (s.kind === 'accepts') return { kind: 'prefix', text, lines: k, rejected: syntax.line };
  }
  return last < maxPrefixes ? { kind: 'nothing' } : { kind: 'unknown' };
}
