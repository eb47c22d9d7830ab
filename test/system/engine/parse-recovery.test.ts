/**
 * Parse what bash runs (issue 13 family 7, issue 18 item 4): src/engine/parse/recover.ts re-parses a
 * corrected text where tree-sitter-bash reads an input differently from bash, and maps the tree
 * back onto the original. Every input here is first confirmed with the real bash (`bash -n`, or a
 * run for heredoc semantics); every test runs on both backends, and the two must build the same
 * tree and IR.
 */
import { spawnSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unless } from '../../helpers/shared.js';
import { getParser, type BashParser, type ParseResult } from '../../../src/engine/parse/index.js';
import { scanHeredocs } from '../../../src/engine/parse/heredocs.js';
import { applyEdits } from '../../../src/engine/parse/rewrite.js';
import { buildScript } from '../../../src/engine/syntax/build.js';
import type { Command, Script, SimpleCommand } from '../../../src/engine/syntax/ir.js';
import { runScenario } from '../../helpers/scenario.js';

const parsers: Record<string, BashParser> = {
  native: await getParser('native'),
  wasm: await getParser('wasm'),
};

const MAIN_README = '/home/dev/repo/README.md';
const hasBash = unless(spawnSync('bash', ['-c', 'exit 0']).status === 0, 'parse-recovery: bash is not installed (the `bash -n` comparisons)') === null;

/** `bash -n` accepts the input (skipped, with the reason, where there is no bash). */
function bashAccepts(src: string): boolean {
  return spawnSync('bash', ['-n', '-c', src], { stdio: 'ignore' }).status === 0;
}

/** What bash prints running `src` (stderr dropped: an unterminated heredoc warns there). */
function bashRun(src: string): string {
  return spawnSync('bash', ['-c', src], { encoding: 'utf8' }).stdout;
}

function parse(parser: BashParser, src: string): Script {
  const r = parser.parse(src);
  if (!r.ok) throw new Error(`${parser.backend}: ${r.message}`);
  return buildScript(r);
}

const first = (s: Script): Command => s.body.items[0]!.command;
const simple = (c: Command): SimpleCommand => {
  if (c.kind !== 'simple') throw new Error(`not a simple command: ${c.kind}`);
  return c;
};

// Item 4 of issue 18: each of these is valid bash that tree-sitter-bash 0.25.1 rejects.
const ACCEPTED = [
  'echo ${x:$i:1}',
  'echo "${x:$i:1}"',
  'echo ${1//&/\\&amp;}',
  'echo "${1//&/\\&amp;}"',
  "echo ${v//'/'/_}",
  "echo \"${v//'/'/_}\"",
  'x=${a:-a b;c}',
  'for x do echo "$x"; done',
  'select x do break; done',
  'A=1 \\\n  B=2\necho hi',
  'A=1 B=2\necho hi',
  'ls | ls | cp a b\necho ok > out.txt',
  'ls | ls | cp a b # note\necho ok > out.txt',
  // heredocs bash runs
  'cat <<EOF\nhello\nworld',
  'cat <<EOF\n  EOF\nworld\n',
  "cat <<'EOF'\nfoo\\\nEOF\necho after",
  'cat <<EOF\nhi\nEOF \necho hi',
  'cat <<-EOF\n\thi\n  EOF\n\tEOF\necho x',
  'cat <<EOF>out\nhi\nEOF\necho z',
  'cat <<EOF',
  'x=$(cat <<EOF\nhi\nEOF\n)\necho "$x"',
  'if [ -x /usr/bin/vim; then x=1; fi',
  '((echo a; echo b) | cat)',
  'x=$(\n  ((gzip -cdq -- "$f" 4>&-\n    echo $? >&4) 3>&- </dev/null |\n   eval "$cmp" - >&3) 5<&0\n)',
  '[ \\( -h "$X" \\) ] && echo a',
  'if [ "$1" = a ] &&\n   [ \\( ! -h "$X" -a \\\n        -d "$X" \\) -o \\\n     \\( -h "$X" -a \\( "$(readlink "$X")" = "$Y" \\) \\) ]; then\n  echo hi\nfi',
  'x=1\nfor i do\n  echo $i\ndone',
  'n=$(($1 + 0)) 2>/dev/null && test "$n" = "$1"',
  'n=1 >x; echo $n > y',
  "case $v in\nless' '45[1-9]* | \\\nless' '4[6-9][0-9]*) c=1;;\n*) c=2;;\nesac",
  "case $r in\n?*' '?*)\n\t;;\n*)\n\texit 2 ;;\nesac",
  // empty command substitutions
  'echo `` x',
  '```bash ls```',
  'a=``; echo "$a"x',
  'echo "``" a``b',
];

describe('the inputs are valid bash', () => {
  it.skipIf(!hasBash)(`bash -n accepts all ${ACCEPTED.length}`, () => {
    expect(ACCEPTED.filter((s) => !bashAccepts(s))).toEqual([]);
  });
});

describe.each(Object.keys(parsers))('recovered parses (%s)', (backend) => {
  const parser = parsers[backend]!;

  it('every accepted input parses with no problem left', () => {
    const bad = ACCEPTED.map((s) => ({ s, p: parse(parser, s).problems.map((p) => p.reason) })).filter((x) => x.p.length > 0);
    expect(bad).toEqual([]);
  });

  it('${x:$i:1}: a substring whose offset is a variable', () => {
    const w = simple(first(parse(parser, 'echo ${x:$i:1}'))).words[1]!;
    expect(w.text).toBe('${x:$i:1}');
    expect(w.parts).toMatchObject([{ kind: 'param', name: 'x', op: ':' }]);
    const arg = (w.parts[0] as { arg: { parts: unknown[]; text: string } }).arg;
    expect(arg.text).toBe('$i:1');
    expect(arg.parts[0]).toMatchObject({ kind: 'param', name: 'i', text: '$i' });
  });

  it('${1//&/\\&amp;}: the replacement is the original text', () => {
    const w = simple(first(parse(parser, 'echo ${1//&/\\&amp;} done'))).words;
    expect(w.map((x) => x.text)).toEqual(['echo', '${1//&/\\&amp;}', 'done']);
    expect(w[1]!.parts).toMatchObject([{ kind: 'param', name: '1', op: '//' }]);
  });

  it("${v/'p'/r}: a quoted pattern is quote removal, and the substitution is computed", () => {
    const w = simple(first(parse(parser, "echo ${v/'p'/r}"))).words[1]!;
    const arg = (w.parts[0] as { arg: { parts: unknown[] } }).arg;
    expect(arg.parts[0]).toEqual({ kind: 'text', value: 'p', quoting: 'single' });
    // bash: d=/home/dev/wt; ${d/'wt'/repo} is /home/dev/repo
    if (hasBash) expect(bashRun("d=/home/dev/wt; echo \"${d/'wt'/repo}/README.md\"")).toBe(`${MAIN_README}\n`);
    expect(runScenario(parser, "d=/home/dev/wt; touch \"${d/'wt'/repo}/README.md\"").verdict.decision).toBe('deny');
    expect(runScenario(parser, "d=/home/dev/repo; touch \"${d/'repo'/repo/.builders/b1}/x\"").verdict.decision).toBe('allow');
  });

  it('[ \\( ... \\) ]: POSIX grouping in `[` is the `[` builtin with its words, and a write after it is found', () => {
    const src = '[ \\( -d /tmp \\) -o -d /x ] && touch /home/dev/repo/README.md';
    const list = first(parse(parser, src));
    expect(list.kind).toBe('and-or');
    if (list.kind !== 'and-or') return;
    const test = simple(list.left);
    expect(test.words.map((w) => w.text)).toEqual(['[', '\\(', '-d', '/tmp', '\\)', '-o', '-d', '/x', ']']);
    expect(runScenario(parser, src).verdict.findings.map((f) => f.path)).toContain(MAIN_README);
  });

  it('((a; b) | c): two subshells when the inner parenthesis does not close before another; ((x++)) stays arithmetic', () => {
    const sub = first(parse(parser, '((cd /tmp && ls) > /home/dev/repo/README.md)'));
    expect(sub.kind).toBe('subshell');
    expect(runScenario(parser, '((cd /tmp && ls) > /home/dev/repo/README.md)').verdict.findings.map((f) => f.path)).toContain(MAIN_README);
    expect(first(parse(parser, '((x++))')).kind).not.toBe('subshell');
    // `((echo a))` is arithmetic to bash too (an error when it runs): still a parse error here.
    expect(parse(parser, '((echo a))').problems.length).toBeGreaterThan(0);
  });

  it('for NAME do: a loop over "$@", and a write in its body is found', () => {
    const loop = first(parse(parser, 'for x do echo "$x"; done'));
    expect(loop).toMatchObject({ kind: 'loop', loop: 'for', variable: 'x', values: null });
    expect(runScenario(parser, `for x do touch ${MAIN_README}; done`).verdict.decision).toBe('deny');
    expect(runScenario(parser, 'for x do touch notes.txt; done').verdict.decision).toBe('allow');
  });

  it('assignments, then a command on the next line (with or without a continuation): two commands', () => {
    for (const src of ['A=1 \\\n  B=2\necho hi', 'A=1 B=2\necho hi']) {
      const s = parse(parser, src);
      expect(s.body.items).toHaveLength(2);
      expect(simple(s.body.items[0]!.command).assigns.map((a) => a.name)).toEqual(['A', 'B']);
      expect(simple(s.body.items[1]!.command).words.map((w) => w.text)).toEqual(['echo', 'hi']);
      expect(s.body.items[1]!.command.range.line).toBe(src.split('\n').length);
    }
    // The misparse that made the sanity check (src/engine/parse/sanity.ts): `cp`'s real destination.
    const r = runScenario(parser, `ls | ls | cp src/app.sh ${MAIN_README}\necho ok > out.txt`);
    expect(r.verdict.decision).toBe('deny');
    expect(r.analysis.effects.some((e) => e.kind === 'write' && e.path === MAIN_README)).toBe(true);
    // A comment ending the first line: the repair's `;` must not join the next line to the comment.
    const c = runScenario(parser, `ls | ls | cat # note\necho ok > ${MAIN_README}`);
    expect(c.verdict.decision).toBe('deny');
    expect(parse(parser, 'ls | ls | cat # note <<\necho ok > out.txt').body.items).toHaveLength(2);
  });

  it('`` is an empty command substitution: the words around it stay separate words', () => {
    if (hasBash) expect(bashRun('printf "<%s>" a `` b')).toBe('<a><b>');
    const c = simple(first(parse(parser, 'touch `` /tmp/x')));
    expect(c.words.map((w) => w.text)).toEqual(['touch', '``', '/tmp/x']);
    expect(c.words[1]!.parts).toMatchObject([{ kind: 'command-sub', body: { kind: 'sequence', items: [] } }]);
    // Before, the grammar read one command named "touch `` /home/..." and this was allowed.
    expect(runScenario(parser, `touch \`\` ${MAIN_README}`).verdict.decision).toBe('deny');
    expect(runScenario(parser, "echo '``' > notes.txt").verdict.decision).toBe('allow');
  });

  it('assignments with a redirect and no command: the assignment and the write are both there', () => {
    const c = simple(first(parse(parser, 'n=1 >x; echo $n > y')));
    expect(c.words).toEqual([]);
    expect(c.assigns.map((a) => a.name)).toEqual(['n']);
    expect(c.redirects).toMatchObject([{ op: '>', target: { text: 'x' } }]);
    expect(runScenario(parser, `n=1 > ${MAIN_README}`).verdict.decision).toBe('deny');
    expect(runScenario(parser, 'n=1 >x; echo $n > y').verdict.decision).toBe('allow');
  });

  describe('heredocs as bash reads them', () => {
    it('an unterminated heredoc runs to the end of the input: its body is the rest', () => {
      const c = simple(first(parse(parser, `cat <<EOF > ${MAIN_README}\nabc\ndef`)));
      expect(c.redirects[0]!.heredoc).toMatchObject({ delimiter: 'EOF', quoted: false });
      expect(c.redirects[0]!.heredoc!.body.text).toBe('abc\ndef');
      expect(c.redirects[1]).toMatchObject({ op: '>', target: { text: MAIN_README } });
      if (hasBash) expect(bashRun('cat <<EOF\nabc\ndef')).toBe('abc\ndef\n');
    });

    it('a write inside an unterminated `bash <<EOF` body is found; its benign twin is allowed', () => {
      if (hasBash) expect(bashRun('bash <<EOF\necho inside\n')).toBe('inside\n');
      expect(runScenario(parser, `bash <<EOF\ncd ../..\ntouch README.md\n`).verdict.decision).toBe('deny');
      expect(runScenario(parser, `bash <<EOF\ntouch notes.txt\n`).verdict.decision).toBe('allow');
    });

    it("an indented EOF inside <<'EOF' is body text, not the end", () => {
      const src = `cat > run.sh <<'EOF'\n  EOF\nrm -rf /home/dev/repo\nEOF\n`;
      if (hasBash) expect(bashRun(`cat <<'EOF'\n  EOF\nrm -rf /nonexistent\nEOF\n`)).toBe('  EOF\nrm -rf /nonexistent\n');
      const s = parse(parser, src);
      expect(s.body.items).toHaveLength(1);
      expect(simple(first(s)).redirects.find((r) => r.heredoc)!.heredoc!.body.text).toBe('  EOF\nrm -rf /home/dev/repo\n');
      expect(runScenario(parser, src).verdict.decision).toBe('allow');
      // ... and what bash feeds a shell after it is analyzed as code.
      expect(runScenario(parser, `bash <<'EOF'\n  EOF\ntouch ${MAIN_README}\nEOF\n`).verdict.decision).toBe('deny');
    });

    it('<<- strips leading TABs only: a space-indented EOF is text', () => {
      if (hasBash) expect(bashRun('cat <<-EOF\n\tx\n  EOF\n\tEOF\necho after')).toBe('x\n  EOF\nafter\n');
      const s = parse(parser, `cat <<-EOF\n\tx\n  EOF\ntouch ${MAIN_README}\n\tEOF\necho after`);
      expect(s.body.items).toHaveLength(2);
      expect(runScenario(parser, `cat <<-EOF\n\tx\n  EOF\ntouch ${MAIN_README}\n\tEOF\n`).verdict.decision).toBe('allow');
    });

    it('a delimiter line must be exactly the delimiter (`EOF ` is text)', () => {
      if (hasBash) expect(bashRun('cat <<EOF\nx\nEOF \necho y')).toBe('x\nEOF \necho y\n');
      expect(parse(parser, `cat <<EOF\nx\nEOF \ntouch ${MAIN_README}\n`).body.items).toHaveLength(1);
      expect(runScenario(parser, `cat <<EOF\nx\nEOF \ntouch ${MAIN_README}\n`).verdict.decision).toBe('allow');
    });

    it("a quoted body's trailing backslash does not join the delimiter line: the write after it is found", () => {
      const src = `cat <<'EOF'\nfoo\\\nEOF\ntouch ${MAIN_README}\n`;
      if (hasBash) expect(bashRun(`cat <<'EOF'\nfoo\\\nEOF\necho after\n`)).toBe('foo\\\nafter\n');
      const r = runScenario(parser, src);
      expect(r.verdict.decision).toBe('deny');
      // Evidence points at the real line of the write.
      expect(r.verdict.findings.find((f) => f.rule !== 'BG0001')!.range.line).toBe(4);
    });

    it('an unquoted body joins backslash-newline before comparing (bash), a quoted one does not', () => {
      expect(scanHeredocs('cat <<EOF\n\\\nEOF\necho after\n')).toMatchObject([{ terminated: true, bodyEnd: 10 }]);
      expect(scanHeredocs("cat <<'EOF'\n\\\nEOF\n")).toMatchObject([{ terminated: true, bodyEnd: 14 }]);
      if (hasBash) expect(bashRun('cat <<EOF\n\\\nEOF\necho after\n')).toBe('after\n');
    });

    it('`<<` that is not a heredoc operator is left alone', () => {
      expect(scanHeredocs('echo $(( 1 << 2 )); (( x <<= 1 )); cat <<< "a<<b"; echo "<<" \'<<\' # <<')).toEqual([]);
      const r = runScenario(parser, `echo $(( 1 << 2 ))\ntouch ${MAIN_README}`);
      expect(r.verdict.decision).toBe('deny');
    });

    it('two heredocs pending on one line stay a parse error (the grammar cannot read them): never allow', () => {
      if (hasBash) expect(bashRun('cat <<A; cat <<B\na\nA\nb\nB\n')).toBe('a\nb\n');
      const r = runScenario(parser, `cat <<A; cat <<B\na\nA\nb\nB\ntouch notes.txt`);
      expect(r.verdict.decision).not.toBe('allow');
    });
  });
});

describe('native and WASM agree on every recovered input', () => {
  it('identical trees and IR', () => {
    const extra = [
      `bash <<EOF\ncd ../..\ntouch README.md\n`,
      `cat > run.sh <<'EOF'\n  EOF\nrm -rf /home/dev/repo\nEOF\n`,
      `cat <<-EOF\n\tx\n  EOF\ntouch x\n\tEOF\necho after`,
      `cat <<A; cat <<B\na\nA\nb\nB\n`,
    ];
    const mismatches: string[] = [];
    for (const src of [...ACCEPTED, ...extra]) {
      const a: ParseResult = parsers.native!.parse(src);
      const b: ParseResult = parsers.wasm!.parse(src);
      if (a.ok !== b.ok) mismatches.push(`${JSON.stringify(src)}: outcome`);
      else if (a.ok && b.ok && (!isDeepStrictEqual(a.root, b.root) || !isDeepStrictEqual(buildScript(a), buildScript(b)))) mismatches.push(`${JSON.stringify(src)}: tree or IR`);
    }
    expect(mismatches).toEqual([]);
  });
});

describe('reporting', () => {
  const parser = parsers.native!;

  it('a parse failure about one place is reported on its line, not line 1', () => {
    // Two heredocs on one line the grammar cannot read, after a clean first line: the problem
    // is the second line's.
    const r = runScenario(parser, `echo start\ncat <<A; cat <<B\na\nA\nb\nB\n`);
    const f = r.verdict.findings.filter((x) => x.rule === 'BG0001');
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((x) => x.range.line >= 2)).toBe(true);
  });

  it('BG0001 once per line, however often the broken code is reached', () => {
    const src = 'f() {\n  echo "$(( ${a[ ))" ${b[\n}\nf; f; f\nfor i in 1 2 3; do f; done\n';
    const lines = runScenario(parser, src).verdict.findings.filter((x) => x.rule === 'BG0001').map((x) => x.range.line);
    expect(lines.length).toBeGreaterThan(0);
    expect(new Set(lines).size).toBe(lines.length);
  });
});

describe('edits map back onto the original', () => {
  it('offsets in copied text, inserted text and replaced text', () => {
    const src = 'abc DEF ghi';
    const rw = applyEdits(src, [
      { start: 4, end: 7, text: 'XXXXX' },
      { start: 11, end: 11, text: '\nEND' },
    ])!;
    expect(rw.text).toBe('abc XXXXX ghi\nEND');
    expect(rw.mapStart(0)).toBe(0);
    expect(rw.mapStart(4)).toBe(4);
    expect(rw.mapEnd(9)).toBe(7);
    expect(rw.mapStart(10)).toBe(8);
    expect(rw.mapEnd(13)).toBe(11);
    expect(rw.inserted(14, 17)).toBe(true);
    expect(rw.inserted(10, 13)).toBe(false);
    expect(applyEdits(src, [{ start: 0, end: 5, text: '' }, { start: 3, end: 4, text: '' }])).toBeNull();
  });
});

describe('no repair on a text full of errors (an HTML page, Tcl behind a sh shebang)', () => {
  // `for x do` is repaired (ACCEPTED above); each noise line is one ERROR the repairs cannot fix.
  const text = (noise: number) => 'for x do echo "$x"; done\n' + 'a <p>) b\n'.repeat(noise);
  const problemLines = (parser: BashParser, src: string) => [...new Set(parse(parser, src).problems.map((p) => p.range.line))];
  it.each(Object.keys(parsers))('%s: repaired among 400 errors, left as the grammar read it among 1,200', (backend) => {
    const parser = parsers[backend]!;
    expect(problemLines(parser, text(400))[0]).toBe(2);
    const many = problemLines(parser, text(1200));
    expect(many[0]).toBe(1);
    expect(many.length).toBe(1201);
  });
});
