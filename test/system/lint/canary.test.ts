/**
 * The canary (issue 48): public bash codebases nobody here wrote (19 Debian packages at pinned
 * versions, over a thousand bash-valid shell files), each file with one write to /etc appended
 * (before a trailing top-level `exit`), linted in one run: every canary must come back as a
 * finding on its own line, or under an unreachable-code note (BG0005) whose reason holds. And the
 * hook: a write on the line after each command of the shared agent command corpora is never allowed.
 *
 * The codebases are fetched by `apt-get download` into node_modules/.cache/bashguard-canary (or
 * $XDG_CACHE_HOME/bashguard-canary), once; where they cannot be fetched the test says why and is
 * skipped (a failure under BASHGUARD_REQUIRE_ALL=1, as in CI). `node scripts/canary-report.mjs`
 * prints the same measurement as a table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Prepared, agentCommands, canaryIndex, classify, fetchPackages, FOUND, hookCases, lintAll, PACKAGES, prepare, reasonHolds } from '../../../scripts/canary-lib.mjs';
import { hookCanaries } from '../../../scripts/canary-hook.mjs';
import { cannotRun, sharedDirOrSkip } from '../../helpers/shared.js';

const MINUTES = 60_000;

/**
 * The canaries lint still loses, each to a parse error on code bash accepts (issue 48 item 4, open):
 * listed with what is known of the cause; any other miss fails, and so does an entry that no longer misses.
 */
const KNOWN_MISSES: Record<string, string> = {};
let prepared: Prepared | null = null;
let skip: string | null = null;

beforeAll(() => {
  const fetched = fetchPackages();
  if (fetched.skip !== undefined) skip = cannotRun(fetched.skip);
  else prepared = prepare(fetched.dir);
}, 15 * MINUTES);

describe('where the canary goes', () => {
  it('at the end, or before a trailing top-level exit or exec of a command', () => {
    expect(canaryIndex(['a', 'b'])).toBe(2);
    expect(canaryIndex(['a', 'exit 0', '', '# end'])).toBe(1);
    expect(canaryIndex(['f() {', '  exit 1', '}'])).toBe(3);
    expect(canaryIndex(['a &&', 'exit 1'])).toBe(2);
    expect(canaryIndex(['a \\', 'exit 1'])).toBe(2);
    // A backslash joins only the next line: after a blank one, `exit` is a command of its own.
    expect(canaryIndex(['a \\', '', 'exit 1'])).toBe(2);
    expect(canaryIndex(['a &&', '', 'exit 1'])).toBe(3);
    expect(canaryIndex(['a \\\\', 'exit 1'])).toBe(1);
    expect(canaryIndex(['a', 'exec "$BATS_ROOT/bin/bats" "$@"'])).toBe(1);
    expect(canaryIndex(['a', 'exec >"$log" 2>&1'])).toBe(2);
  });

  it("an unreachable note's reason counts only when the cited exit is a top-level command before the canary", () => {
    const note = (line: number) => ({ message: `unreachable: after \`exit\` on line ${line}` });
    const src = 'a\nexit 0\nf() {\nexit 1\n}\necho canary > /etc/x\n';
    expect(reasonHolds(note(2), src, 6)).toBe(true);
    expect(reasonHolds(note(4), src, 6)).toBe(false);
    expect(reasonHolds(note(6), src, 6)).toBe(false);
    expect(reasonHolds({ message: 'unreachable: `f` (line 3) exits on every path' }, src, 6)).toBe(false);
    expect(reasonHolds(note(2), 'a ||\nexit 0\necho canary > /etc/x\n', 3)).toBe(false);
    expect(reasonHolds(note(2), 'a \\\nexit 0\necho canary > /etc/x\n', 3)).toBe(false);
    expect(reasonHolds(note(3), 'a \\\n\nexit 0\necho canary > /etc/x\n', 4)).toBe(true);
  });

  it('an `if`/`case` every path of which exits, and a function that exits on every path, are checked in bash\'s normal form', () => {
    const ifNote = { message: 'unreachable: every path through the `if` on line 1 exits' };
    expect(reasonHolds(ifNote, 'if a; then\n  exit 0\nelif b; then c; exit 2\nelse\n  exit 1\nfi\necho canary > /etc/x\n', 7)).toBe(true);
    expect(reasonHolds(ifNote, 'if a; then\n  exit 0\nfi\necho canary > /etc/x\n', 4)).toBe(false);
    expect(reasonHolds(ifNote, 'if a; then\n  exit 0\nelse\n  ( exit 1 )\nfi\necho canary > /etc/x\n', 6)).toBe(false);
    // A string over several lines is text: an `exit` in it exits nothing; one after it does.
    expect(reasonHolds(ifNote, "if a; then\n  exit 0\nelse\n  echo '\n    exit 1\n'\nfi\necho canary > /etc/x\n", 8)).toBe(false);
    expect(reasonHolds(ifNote, "if a; then\n  exit 0\nelse\n  perl -e '\n  x\n' \"$b\"\n  exit 1\nfi\necho canary > /etc/x\n", 9)).toBe(true);
    expect(reasonHolds(ifNote, "if a; then\n  exit 0\nelse\n  echo 'never closed\n  exit 1\nfi\necho canary > /etc/x\n", 8)).toBe(false);
    const caseNote = { message: 'unreachable: every path through the `case` on line 1 exits' };
    expect(reasonHolds(caseNote, 'case $1 in\n a) exit 1;;\n *) exit 2;;\nesac\necho canary > /etc/x\n', 5)).toBe(true);
    expect(reasonHolds(caseNote, 'case $1 in\n a) exit 1;;\n b) exit 2;;\nesac\necho canary > /etc/x\n', 5)).toBe(false);
    const fNote = { message: 'unreachable: `f` (line 1) exits on every path (called on line 5)' };
    expect(reasonHolds(fNote, 'f() {\n  echo "$*" >&2\n  exit 1\n}\nf x\necho canary > /etc/x\n', 6)).toBe(true);
    expect(reasonHolds(fNote, 'f() {\n  if x; then return; fi\n  exit 0\n}\nf\necho canary > /etc/x\n', 6)).toBe(false);
    expect(reasonHolds(fNote, 'f() {\n  if [ -z "$1" ]; then exit 1; fi\n}\n\nf "$a"\necho canary > /etc/x\n', 6)).toBe(false);
    expect(reasonHolds(fNote, 'f() {\n  exit 1\n}\n\nf || true\necho canary > /etc/x\n', 6)).toBe(false);
    expect(reasonHolds(fNote, 'f() {\n  while a; do break; done\n  die\n}\nf\necho canary > /etc/x\n', 6)).toBe(false);
    const viaDie = { message: 'unreachable: `f` (line 2) exits on every path (called on line 3)' };
    expect(reasonHolds(viaDie, 'die() { exit 1; }\nf() { while a; do break; done; die "$x: no"; }\nf\necho canary > /etc/x\n', 4)).toBe(true);
  });
});

describe('lint reports every canary', () => {
  it('the codebases: at least ten, over a thousand bash-valid files with a canary', (ctx) => {
    if (skip !== null) return ctx.skip(skip);
    expect(PACKAGES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(prepared!.files.map((f) => f.pkg)).size).toBeGreaterThanOrEqual(10);
    expect(prepared!.files.length).toBeGreaterThan(1000);
  });

  it('each canary is a finding on its line, or under an unreachable note whose reason holds', (ctx) => {
    if (skip !== null) return ctx.skip(skip);
    const fates = classify(prepared!, lintAll(prepared!));
    const lost = fates.filter((f) => !FOUND.has(f.fate));
    const known = (f: (typeof fates)[number]) => KNOWN_MISSES[`${f.pkg}/${f.rel}`] !== undefined && f.fate === 'parse-error';
    const missed = lost.filter((f) => !known(f)).map((f) => `${f.pkg}/${f.rel}:${f.line} ${f.fate}${f.error ? ` (${f.error})` : ''}${f.why.length ? `: ${f.why[0]!.slice(0, 160)}` : ''}`);
    const causes = new Map<string, number>();
    for (const f of lost) causes.set(f.fate, (causes.get(f.fate) ?? 0) + 1);
    const byCause = [...causes].map(([k, n]) => `${k} ${n}`);
    expect(missed, `${missed.length} of ${fates.length} canaries missed (${byCause.join(', ')})`).toEqual([]);
    // A known miss that is found now is stale: its entry goes.
    const stale = Object.keys(KNOWN_MISSES).filter((file) => !lost.some((f) => `${f.pkg}/${f.rel}` === file && known(f)));
    expect(stale, 'known misses that no longer miss (remove them from KNOWN_MISSES)').toEqual([]);
  }, 10 * MINUTES);
});

describe('the hook never allows a write after an agent command', () => {
  const shared = sharedDirOrSkip();

  it('each command of the shared agent corpora, then `echo x > /etc/bashguard-canary-hook`', async (ctx) => {
    if (shared.skip !== null) return ctx.skip(shared.skip);
    const { cases, total } = hookCases(agentCommands(shared.dir));
    expect(cases.length).toBeGreaterThan(total / 2);
    const results = await hookCanaries(cases);
    expect(results.length).toBe(cases.length);
    const allowed = results.filter((r) => r.decision !== 'deny' && r.decision !== 'ask').map((r) => `${r.corpus}: ${r.decision}: ${JSON.stringify(r.cmd).slice(0, 200)}${r.first ? ` (${r.first.slice(0, 120)})` : ''}`);
    expect(allowed, `${allowed.length} of ${cases.length} canaries allowed`).toEqual([]);
  }, 10 * MINUTES);
});
