/**
 * Hostile inputs for the hook, each with the outcome it must get. Built from the layout so the
 * targets are real paths; the heavy ones are built inside a child process (test/helpers/hook-child.ts)
 * so its peak memory can be measured on its own.
 *
 * Expectations:
 * - `unanalyzable`: bashguard cannot read it: ask by default, deny with `"unanalyzable": "deny"`;
 * - `blocked`: never allow (ask or deny), under either config;
 * - `deny`: deny under either config;
 * - `readable`: bashguard can read it and anything but a crash or overrun is fine (allow is
 *   expected when it only writes inside the worktree);
 * - `not-run`: tree-sitter cannot read it and bash rejects it before any command in it is
 *   complete, so none of it runs: allow under either config (src/frontends/decide.ts judgeBash).
 */
export type Expect = 'unanalyzable' | 'blocked' | 'deny' | 'readable' | 'not-run';

export interface HostileLayout {
  main: string;
  worktree: string;
}

export interface HostileCase {
  name: string;
  heavy: boolean;
  expect: Expect;
  /** Wall-clock bound for one hook decision, ms. */
  boundMs: number;
  /** Peak RSS bound for the child process running it (heavy cases), MiB. */
  rssMiB?: number;
  /** The Bash command; or `raw` for a hand-built hook input (invalid UTF-8, oversized JSON). */
  command?: (l: HostileLayout) => string;
  raw?: (l: HostileLayout) => string;
}

const N = 10_000;

/** `bash -c $'...'` quoting that grows linearly with nesting (\x27 for ', \x5c for \). */
export function ansiQuote(s: string): string {
  return `$'${s.replace(/\\/g, '\\x5c').replace(/'/g, '\\x27')}'`;
}

function nestBashC(inner: string, levels: number): string {
  let c = inner;
  for (let i = 0; i < levels; i++) c = `bash -c ${ansiQuote(c)}`;
  return c;
}

const W = (l: HostileLayout) => `echo hi > ${l.main}/README.md`;
const hookJson = (l: HostileLayout, command: string) => JSON.stringify({ tool_name: 'Bash', tool_input: { command }, cwd: l.worktree, hook_event_name: 'PreToolUse' });
/** Hook input whose command has raw (possibly invalid UTF-8) bytes between two ASCII parts, decoded as stdin is. */
function rawWithBytes(l: HostileLayout, before: string, bytes: number[], after: string): string {
  const head = `{"tool_name":"Bash","cwd":${JSON.stringify(l.worktree)},"tool_input":{"command":${JSON.stringify(before).slice(0, -1)}`;
  return Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(`${after}"}}`)]).toString('utf8');
}
const fill = (unit: string, chars: number) => unit.repeat(Math.ceil(chars / unit.length));

export const HOSTILE: HostileCase[] = [
  // ---- deep nesting, 10,000 levels
  { name: '$( x10000 with a write inside', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: (l) => 'echo ' + '$(echo '.repeat(N) + `x > ${l.main}/README.md` + ')'.repeat(N) },
  { name: '"$( x10000 (nested quotes)', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: (l) => 'echo ' + '"$(echo '.repeat(N) + 'x' + ')"'.repeat(N) + `; ${W(l)}` },
  { name: '$(( ( x10000 arithmetic', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: (l) => 'echo $((' + '('.repeat(N) + '1' + ')'.repeat(N) + `)); ${W(l)}` },
  { name: '(( x10000 arithmetic command', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: () => '(('.repeat(N) + '1' + '))'.repeat(N) },
  { name: '{ x10000 groups around a write', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: (l) => '{ '.repeat(N) + W(l) + '; }'.repeat(N) },
  { name: '( x10000 subshells, benign inside', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: () => '( '.repeat(N) + 'echo hi' + ' )'.repeat(N) },
  { name: 'quotes x10000 alternating in one word', heavy: true, expect: 'readable', boundMs: 10_000, rssMiB: 512, command: () => 'echo ' + `"a"'b'`.repeat(N) + ' > out.txt' },
  // ---- size
  // Huge statement counts (this and the 100,000-command cases): tree-sitter's tree plus as much
  // of the copy as fits in the parse budget, measured 410-830 MiB here depending on how far the
  // copy gets before the budget stops it. The worst case is the whole tree of a maxInputChars
  // input copied (~860 MiB before the copy shared the budget), hence 1024 MiB: a bound, not a
  // target. A node-count limit in src/engine/parse would bound it far lower (see the report).
  { name: '1 MB of commands with a write at the end', heavy: true, expect: 'unanalyzable', boundMs: 15_000, rssMiB: 1024, command: (l) => fill('echo hi; ', 1_000_000) + W(l) },
  { name: '1 MB single word written inside', heavy: true, expect: 'readable', boundMs: 15_000, rssMiB: 512, command: () => `echo '${'a'.repeat(1_000_000)}' > out.txt` },
  { name: '1 MB single word written to the main checkout', heavy: true, expect: 'deny', boundMs: 15_000, rssMiB: 512, command: (l) => `echo '${'a'.repeat(1_000_000)}' > ${l.main}/README.md` },
  { name: '10 MB command', heavy: true, expect: 'unanalyzable', boundMs: 15_000, rssMiB: 512, command: (l) => fill('echo hi; ', 10_000_000) + W(l) },
  { name: '17 MB hook input (over MAX_HOOK_INPUT)', heavy: true, expect: 'unanalyzable', boundMs: 15_000, rssMiB: 512, raw: (l) => hookJson(l, fill('true;', 17_000_000)) },
  { name: '100,000 ;-separated commands then a write', heavy: true, expect: 'unanalyzable', boundMs: 15_000, rssMiB: 1024, command: (l) => 'true;'.repeat(100_000) + W(l) },
  { name: '100,000 ;-separated benign commands', heavy: true, expect: 'unanalyzable', boundMs: 15_000, rssMiB: 1024, command: () => 'true;'.repeat(100_000) },
  // ---- brace expansion
  { name: 'touch main/f{1..1000000}', heavy: true, expect: 'deny', boundMs: 10_000, rssMiB: 512, command: (l) => `touch ${l.main}/f{1..1000000}` },
  { name: 'echo {1..1000000} > main', heavy: true, expect: 'deny', boundMs: 10_000, rssMiB: 512, command: (l) => `echo {1..1000000} > ${l.main}/README.md` },
  { name: 'touch f{1..1000000} inside', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: () => 'touch f{1..1000000}' },
  { name: 'touch main/{a,b}x30', heavy: true, expect: 'deny', boundMs: 10_000, rssMiB: 512, command: (l) => `touch ${l.main}/` + '{a,b}'.repeat(30) },
  { name: 'touch {a,b}{c,d}x15 inside', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: () => 'touch ' + '{a,b}{c,d}'.repeat(15) },
  { name: '{1..1000000}{1..1000000} in a for list', heavy: true, expect: 'blocked', boundMs: 10_000, rssMiB: 512, command: (l) => `for f in {1..1000000}{1..1000000}; do echo > "$f"; done; ${W(l)}` },
  // ---- nested shells
  { name: '50 levels of bash -c around a write', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: (l) => nestBashC(W(l), 50) },
  { name: '50 levels of bash -c around echo', heavy: true, expect: 'unanalyzable', boundMs: 10_000, rssMiB: 512, command: () => nestBashC('echo hi', 50) },
  { name: '8 levels of bash -c around a write', heavy: false, expect: 'deny', boundMs: 5_000, command: (l) => nestBashC(W(l), 8) },
  // ---- NUL bytes (bash cannot receive them; the analysis uses NUL as its "unknown" marker)
  { name: 'NUL inside a word', heavy: false, expect: 'unanalyzable', boundMs: 5_000, command: (l) => `echo hi\0 > ${l.main}/README.md` },
  { name: 'NUL hiding .. from the policy', heavy: false, expect: 'unanalyzable', boundMs: 5_000, command: () => 'echo hi > x\0/../../../README.md' },
  { name: 'NUL as a cd target', heavy: false, expect: 'unanalyzable', boundMs: 5_000, command: () => 'cd \0; echo hi > ../../README.md' },
  { name: 'NUL at the end', heavy: false, expect: 'unanalyzable', boundMs: 5_000, command: () => 'echo hi > out.txt\0' },
  // ---- invalid UTF-8 and lone surrogates
  { name: 'invalid UTF-8 bytes in the path (decoded as U+FFFD)', heavy: false, expect: 'deny', boundMs: 5_000, raw: (l) => rawWithBytes(l, `echo hi > ${l.main}/READ`, [0xff, 0xfe, 0xc3], 'ME.md') },
  { name: 'lone surrogate in the path (JSON \\ud800)', heavy: false, expect: 'deny', boundMs: 5_000, raw: (l) => hookJson(l, `echo hi > ${l.main}/x`).replace('/x"', '/x\\ud800"') },
  { name: 'overlong UTF-8 slashes (0xc0 0xaf) around ..', heavy: false, expect: 'readable', boundMs: 5_000, raw: (l) => rawWithBytes(l, 'echo hi > x', [0xc0, 0xaf, 0x2e, 0x2e, 0xc0, 0xaf, 0x2e, 0x2e, 0xc0, 0xaf], 'README.md') },
  // ---- CRLF
  { name: 'CRLF line endings around a write', heavy: false, expect: 'deny', boundMs: 5_000, command: (l) => `ls\r\n${W(l)}\r\n` },
  { name: 'CRLF after a backslash (bash: no line continuation)', heavy: false, expect: 'blocked', boundMs: 5_000, command: (l) => `echo ok \\\r\ncp src/app.sh ${l.main}/README.md` },
  { name: 'CRLF benign', heavy: false, expect: 'readable', boundMs: 5_000, command: () => 'ls\r\necho hi > out.txt\r\n' },
  // ---- unterminated constructs
  { name: 'unterminated double quote', heavy: false, expect: 'not-run', boundMs: 5_000, command: (l) => `echo "hi > ${l.main}/README.md` },
  { name: 'unterminated single quote', heavy: false, expect: 'not-run', boundMs: 5_000, command: () => "echo 'hi" },
  { name: 'unterminated $(', heavy: false, expect: 'not-run', boundMs: 5_000, command: (l) => `echo $(cat > ${l.main}/README.md` },
  { name: 'unterminated $(, benign', heavy: false, expect: 'not-run', boundMs: 5_000, command: () => 'echo $(ls' },
  { name: 'unterminated heredoc that bash still runs', heavy: false, expect: 'blocked', boundMs: 5_000, command: (l) => `cat <<EOF > ${l.main}/README.md\nhello` },
  // Complete commands before the unterminated one run: judged.
  { name: 'write before an unterminated quote', heavy: false, expect: 'deny', boundMs: 5_000, command: (l) => `cp src/app.sh ${l.main}/README.md\necho "hi` },
  // bash runs an unterminated heredoc to the end of the input (src/engine/parse/recover.ts): readable.
  { name: 'unterminated heredoc, benign', heavy: false, expect: 'readable', boundMs: 5_000, command: () => 'cat <<EOF\nhello' },
  // `EOF2` is not the delimiter, so bash reads the `cp` line as heredoc text: nothing is written.
  { name: 'heredoc delimiter that never appears, write after', heavy: false, expect: 'readable', boundMs: 5_000, command: (l) => `cat <<EOF\nline\nEOF2\ncp src/app.sh ${l.main}/README.md` },
  { name: 'heredoc delimiter that never appears, fed to a shell', heavy: false, expect: 'deny', boundMs: 5_000, command: (l) => `bash <<EOF\nline=1\nEOF2=1\ncp src/app.sh ${l.main}/README.md` },
  { name: 'heredoc delimiter never appears, 100k lines', heavy: true, expect: 'blocked', boundMs: 10_000, rssMiB: 512, command: (l) => `cat <<EOF > ${l.main}/README.md\n` + 'line\n'.repeat(100_000) },
  // ---- grammar misparse: a 3-stage pipeline swallows the next line
  { name: 'pipeline joined with the next line (tree-sitter misparse)', heavy: false, expect: 'blocked', boundMs: 5_000, command: (l) => `ls | ls | cp src/app.sh ${l.main}/README.md\necho ok > out.txt` },
];

export function hookInput(c: HostileCase, l: HostileLayout): string {
  return c.raw ? c.raw(l) : hookJson(l, c.command!(l));
}
