/**
 * Hostile inputs end in their documented outcome (docs/limits.md) within a bounded time, on both
 * backends, and the decision for an unanalyzable command is `ask`, never `allow`. Time bounds are
 * hang detectors (generous, in CPU time), not performance targets.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, getParser, type BashParser, type ParseResult } from '../../../../src/engine/parse/index.js';
import { buildScript } from '../../../../src/engine/syntax/build.js';
import { runScenario } from '../../../helpers/scenario.js';
import { cpuTimed } from '../../../helpers/cpu-time.js';

const BOUND_MS = 5_000;
const MAIN_README = '/home/dev/repo/README.md';

const parsers: Record<string, BashParser> = { native: await getParser('native'), wasm: await getParser('wasm') };

/** CPU time, not wall time: a loaded machine must not fail the hang detector. */
const timed = cpuTimed;

type Outcome = 'ok' | 'ok-with-problems' | Extract<ParseResult, { ok: false }>['kind'];

function outcome(r: ParseResult): Outcome {
  if (!r.ok) return r.kind;
  return buildScript(r).problems.length > 0 ? 'ok-with-problems' : 'ok';
}

describe.each(Object.keys(parsers))('%s backend', (backend) => {
  const parser = parsers[backend]!;

  const check = (src: string, want: Outcome[], decision: 'ask' | 'deny' | 'allow' | 'not-allow') => {
    const parsed = timed(() => parser.parse(src));
    expect(want).toContain(outcome(parsed.value));
    expect(parsed.ms).toBeLessThan(BOUND_MS);
    const decided = timed(() => runScenario(parser, src).verdict.decision);
    if (decision === 'not-allow') expect(decided.value).not.toBe('allow');
    else expect(decided.value).toBe(decision);
    expect(decided.ms).toBeLessThan(BOUND_MS);
  };

  it('the limits are the documented ones', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ maxInputChars: 1024 * 1024, maxDepth: 400, timeoutMs: 1500 });
  });

  it('a 1 MB (10^6 characters) command is under the limit: parsed and analyzed (deny for a write to main)', () => {
    check('echo ' + 'a'.repeat(1_000_000 - 40) + ` > ${MAIN_README}`, ['ok'], 'deny');
  });

  it('one character over the limit (1 MiB + 1): too-large, ask', () => {
    const src = `echo > ${MAIN_README}; ` + 'a'.repeat(DEFAULT_LIMITS.maxInputChars);
    expect(src.length).toBeGreaterThan(DEFAULT_LIMITS.maxInputChars);
    check(src, ['too-large'], 'ask');
    const r = parser.parse(src);
    if (!r.ok) expect(r.message).toMatch(/over the limit of 1048576/);
  });

  it('after a parse stopped by its timeout, the next parse reads its own input (no resumed parse)', () => {
    // tree-sitter keeps a timed-out parse for resuming; the next call would continue it, giving
    // the tree of the old text (found by the fuzzer: `serverless info` came back as `echo a; ...`).
    const stopped = parser.parse('echo a; '.repeat(200_000), { timeoutMs: 1, maxInputChars: 4 * 1024 * 1024 });
    expect(stopped.ok).toBe(false);
    if (!stopped.ok) expect(stopped.kind).toBe('timeout');
    const next = parser.parse('serverless info');
    expect(next.ok).toBe(true);
    if (next.ok) {
      expect(next.root.end).toBe('serverless info'.length);
      expect(next.root.children.map((c) => c.type)).toEqual(['command']);
    }
  });

  it('~1 MB of 80,000 statements: parsed, or timeout within the budget; never allow', () => {
    check(`echo x > ${MAIN_README}; ` + 'echo a > x; '.repeat(80_000), ['ok', 'timeout', 'too-large'], 'not-allow');
  });

  it('10,000 nested $( ... ): too-deep, ask', () => {
    check('$('.repeat(10_000) + 'x' + ')'.repeat(10_000), ['too-deep'], 'ask');
  });

  it('10,000 nested ( ... ): too-deep, ask', () => {
    check('('.repeat(10_000) + 'x' + ')'.repeat(10_000), ['too-deep'], 'ask');
  });

  it('10,000 nested ( ... ) hiding a write: still ask', () => {
    check('('.repeat(10_000) + `echo x > ${MAIN_README}` + ')'.repeat(10_000), ['too-deep'], 'ask');
  });

  it('a nesting just inside the depth limit parses', () => {
    // (`((` would start an arithmetic command, hence the spaces.)
    check('( '.repeat(50) + 'echo x > f' + ' )'.repeat(50), ['ok'], 'allow');
    check('( '.repeat(50) + `echo x > ${MAIN_README}` + ' )'.repeat(50), ['ok'], 'deny');
  });

  it('NUL bytes: parser-error (bash cannot receive them), ask', () => {
    check('echo a\0b > f', ['parser-error'], 'ask');
    check(`echo > x\0/../../../README.md`, ['parser-error'], 'ask');
  });

  it('invalid UTF-8 (decoded by Node to U+FFFD) is an ordinary character', () => {
    const decoded = Buffer.from([0x65, 0x63, 0x68, 0x6f, 0x20, 0xff, 0xfe, 0x20, 0x3e, 0x20, 0x66]).toString('utf8');
    expect(decoded).toBe('echo \ufffd\ufffd > f');
    check(decoded, ['ok'], 'allow');
    check(Buffer.concat([Buffer.from('echo '), Buffer.from([0xc3]), Buffer.from(` > ${MAIN_README}`)]).toString('utf8'), ['ok'], 'deny');
  });

  it('CRLF line endings: the CR is part of the word, as in bash; a write to main is still found', () => {
    check(`echo a\r\necho b > ${MAIN_README}\r\n`, ['ok', 'ok-with-problems'], 'not-allow');
    check('echo a\r\necho b > f\r\n', ['ok', 'ok-with-problems'], 'allow');
  });

  it('unterminated quotes: problems, ask', () => {
    check(`echo "abc > ${MAIN_README}`, ['ok-with-problems'], 'ask');
    check("echo 'abc", ['ok-with-problems'], 'ask');
    check('echo $(ls', ['ok-with-problems'], 'ask');
    check('echo `ls', ['ok-with-problems'], 'ask');
  });

  it('unterminated heredocs run to the end of the input, as in bash: analyzed, not refused', () => {
    check(`cat <<EOF > ${MAIN_README}\nabc`, ['ok'], 'deny');
    check('cat <<EOF\nabc', ['ok'], 'allow');
    check(`bash <<EOF\necho > ${MAIN_README}`, ['ok'], 'deny');
  });

  it('long lines of garbage and deep brace/quote mixes stay bounded', () => {
    // An odd number of quotes never closes; an even number is a command named "".
    check('"'.repeat(100_001), ['ok-with-problems', 'too-deep', 'timeout'], 'not-allow');
    check('{ '.repeat(5_000) + 'x' + '; }'.repeat(5_000), ['too-deep', 'ok-with-problems'], 'ask');
    check('${'.repeat(5_000) + 'x' + '}'.repeat(5_000), ['too-deep', 'ok-with-problems'], 'ask');
  });
});
