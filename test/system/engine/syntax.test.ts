/**
 * The syntax IR (src/engine/syntax/ir.ts) for every construct, byte ranges and line:column, and one test
 * per grammar quirk listed in the header of src/engine/syntax/build.ts. Every test runs on both backends.
 * Where bash's own behaviour decides (redirect attachment, `$'..'` escapes, `<<-`), the expected
 * value was checked with `bash -c`, and a few are re-checked here against the real bash.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../src/engine/parse/index.js';
import { buildScript, decodeAnsiC } from '../../../src/engine/syntax/build.js';
import type { Command, Quoting, Script, SimpleCommand, WordPart } from '../../../src/engine/syntax/ir.js';
import { runScenario } from '../../helpers/scenario.js';

const parsers: Record<string, BashParser> = {
  native: await getParser('native'),
  wasm: await getParser('wasm'),
};

/** Drops ranges, for comparing shapes. */
function strip<T>(x: T): T {
  if (Array.isArray(x)) return x.map(strip) as T;
  if (x && typeof x === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(x)) if (k !== 'range') o[k] = strip(v);
    return o as T;
  }
  return x;
}

const t = (value: string, quoting: Quoting = 'none'): WordPart => ({ kind: 'text', value, quoting });
const lit = (s: string) => ({ parts: [t(s)], text: s });
const simple = (words: string[], redirects: unknown[] = [], assigns: unknown[] = []) => ({ kind: 'simple', assigns, words: words.map(lit), declarations: [], redirects });
const seq = (...cmds: unknown[]) => ({ kind: 'sequence', items: cmds.map((command) => ({ command, background: false })) });
const redir = (op: string, target: string, fd: number | null = null) => ({ op, fd, target: lit(target), heredoc: null });

function bashOut(script: string): string {
  return execFileSync('bash', ['-c', script], { encoding: 'utf8' });
}

describe.each(Object.keys(parsers))('IR (%s)', (backend) => {
  const parser = parsers[backend]!;
  function script(src: string): Script {
    const r = parser.parse(src);
    if (!r.ok) throw new Error(`parse failed: ${r.message}`);
    return buildScript(r);
  }
  function clean(src: string): Script {
    const s = script(src);
    expect(s.problems, `problems for ${JSON.stringify(src)}`).toEqual([]);
    return s;
  }
  const first = (src: string): Command => clean(src).body.items[0]!.command;
  const shape = (src: string) => strip(clean(src).body.items.map((i) => i.command));
  const simpleOf = (src: string): SimpleCommand => {
    const c = first(src);
    if (c.kind !== 'simple') throw new Error(`not a simple command: ${c.kind}`);
    return c;
  };
  const wordParts = (src: string, i = 1): WordPart[] => strip(simpleOf(src).words[i]!.parts);

  describe('commands', () => {
    it('simple command with arguments', () => {
      expect(shape('echo a b')).toEqual([simple(['echo', 'a', 'b'])]);
    });

    it('prefix assignments apply to the command; bare assignments set variables', () => {
      const c = simpleOf('A=1 B+=x cmd arg');
      expect(c.assigns.map((a) => [a.name, a.append, a.value?.text])).toEqual([['A', false, '1'], ['B', true, 'x']]);
      expect(c.words.map((w) => w.text)).toEqual(['cmd', 'arg']);
      const bare = simpleOf('X=/tmp/y');
      expect(bare.words).toEqual([]);
      expect(bare.assigns[0]!.value!.text).toBe('/tmp/y');
      expect(simpleOf('X=(1 2) cmd').assigns[0]).toMatchObject({ name: 'X', value: null, unknownValue: true });
      expect(simpleOf('X= cmd').assigns[0]).toMatchObject({ name: 'X', value: null, unknownValue: false });
    });

    it('`x=y` after the command name is an argument', () => {
      const c = simpleOf('env A=1 cmd');
      expect(c.assigns).toEqual([]);
      expect(c.words.map((w) => w.text)).toEqual(['env', 'A=1', 'cmd']);
    });

    it('declaration builtins keep their assignments', () => {
      const c = simpleOf('export A=/x B');
      expect(c.words.map((w) => w.text)).toEqual(['export', 'B']);
      expect(c.declarations.map((d) => [d.name, d.value?.text])).toEqual([['A', '/x']]);
      expect(simpleOf('local -r x=1').declarations[0]!.name).toBe('x');
    });

    it('pipelines, negation and |&', () => {
      expect(shape('a | b | c')).toEqual([{ kind: 'pipeline', commands: [simple(['a']), simple(['b']), simple(['c'])], negated: false }]);
      // bash negates the whole pipeline (the grammar attaches `!` to its first command).
      expect(shape('! a | b')).toEqual([{ kind: 'pipeline', commands: [simple(['a']), simple(['b'])], negated: true }]);
      expect(shape('! a')).toEqual([{ kind: 'pipeline', commands: [simple(['a'])], negated: true }]);
      const c = first('a |& b');
      expect(c.kind).toBe('pipeline');
    });

    it('&& and || are left-associative', () => {
      expect(shape('a && b || c')).toEqual([
        { kind: 'and-or', op: '||', left: { kind: 'and-or', op: '&&', left: simple(['a']), right: simple(['b']) }, right: simple(['c']) },
      ]);
    });

    it('sequences with ; & and newlines; & marks background', () => {
      const s = clean('a; b & c\nd');
      expect(s.body.items.map((i) => [(i.command as SimpleCommand).words[0]!.text, i.background])).toEqual([['a', false], ['b', true], ['c', false], ['d', false]]);
    });

    it('subshells and brace groups, with their redirects', () => {
      expect(shape('(cd /x; rm y)')).toEqual([{ kind: 'subshell', body: seq(simple(['cd', '/x']), simple(['rm', 'y'])), redirects: [] }]);
      expect(shape('{ a; b; } > f')).toEqual([{ kind: 'group', body: seq(simple(['a']), simple(['b'])), redirects: [redir('>', 'f')] }]);
      expect(shape('(a) 2>&1 >> f')).toEqual([{ kind: 'subshell', body: seq(simple(['a'])), redirects: [redir('>&', '1', 2), redir('>>', 'f')] }]);
    });

    it('if / elif / else', () => {
      const c = first('if a; then b; elif c; then d; else e; fi');
      if (c.kind !== 'if') throw new Error(c.kind);
      expect(c.branches).toHaveLength(2);
      expect(strip(c.branches[0]!.body)).toEqual(seq(simple(['b'])));
      expect(strip(c.branches[1]!.body)).toEqual(seq(simple(['d'])));
      expect(strip(c.elseBody)).toEqual(seq(simple(['e'])));
      expect(JSON.stringify(strip(c.branches[0]!.condition))).toContain('"a"');
      expect(JSON.stringify(strip(c.branches[1]!.condition))).toContain('"c"');
    });

    it('case with several patterns per item', () => {
      const c = first('case "$1" in start|run) go;; *.txt) cat "$1";; *) ;; esac');
      if (c.kind !== 'case') throw new Error(c.kind);
      expect(c.subject.text).toBe('"$1"');
      expect(c.items.map((i) => i.patterns.map((p) => p.text))).toEqual([['start', 'run'], ['*.txt'], ['*']]);
      expect(strip(c.items[0]!.body)).toEqual(seq(simple(['go'])));
      expect(c.items[2]!.body).toMatchObject({ kind: 'sequence', items: [] });
    });

    it('for, select, while, until, c-style for', () => {
      expect(strip(first('for f in a "b c"; do rm "$f"; done'))).toMatchObject({ kind: 'loop', loop: 'for', variable: 'f', values: [lit('a'), { text: '"b c"' }], condition: null });
      expect(first('for f; do :; done')).toMatchObject({ loop: 'for', variable: 'f', values: null });
      expect(strip(first('select x in a b; do break; done'))).toMatchObject({ loop: 'select', variable: 'x', values: [lit('a'), lit('b')] });
      const w = first('while read l; do echo "$l"; done < in > out');
      expect(strip(w)).toMatchObject({ loop: 'while', condition: seq({ ...simple(['read', 'l']) }), redirects: [redir('<', 'in'), redir('>', 'out')] });
      expect(strip(first('until false; do :; done'))).toMatchObject({ loop: 'until', condition: seq(simple(['false'])), body: seq(simple([':'])) });
      const cf = first('for ((i=0; i<$(n); i++)); do echo $i; done');
      if (cf.kind !== 'loop') throw new Error(cf.kind);
      expect(cf.loop).toBe('c-for');
      expect(cf.condition).toMatchObject({ kind: 'test', words: [{ text: '$(n)' }] });
    });

    it('function definitions, both spellings, with redirects', () => {
      expect(strip(first('f() { echo a; } > log'))).toEqual({
        kind: 'function', name: 'f', body: { kind: 'group', body: seq(simple(['echo', 'a'])), redirects: [] }, redirects: [redir('>', 'log')],
      });
      expect(first('function g { :; }')).toMatchObject({ kind: 'function', name: 'g' });
      expect(first('h() ( cd /x )')).toMatchObject({ kind: 'function', name: 'h', body: { kind: 'subshell' } });
    });

    it('[[ ]] and (( )) are tests that keep their command substitutions', () => {
      expect(strip(first('[[ -f $(x) && $y == z ]]'))).toMatchObject({ kind: 'test', words: [{ text: '$(x)' }] });
      expect(first('((x++))')).toMatchObject({ kind: 'test', words: [] });
    });
  });

  describe('redirects', () => {
    it('every operator, with fds', () => {
      const c = simpleOf('cmd > a >> b 2> c &> d &>> e < f 2>&1 >&3 0<&3 >| g');
      expect(c.redirects.map((r) => [r.op, r.fd, r.target?.text ?? null])).toEqual([
        ['>', null, 'a'], ['>>', null, 'b'], ['>', 2, 'c'], ['&>', null, 'd'], ['&>>', null, 'e'], ['<', null, 'f'],
        ['>&', 2, '1'], ['>&', null, '3'], ['<&', 0, '3'], ['>|', null, 'g'],
      ]);
      expect(simpleOf('exec 3>&- 4<&-').redirects.map((r) => [r.op, r.fd, r.target])).toEqual([['>&-', 3, null], ['<&-', 4, null]]);
      expect(simpleOf('cmd <<< "s"').redirects.map((r) => [r.op, r.target?.text])).toEqual([['<<<', '"s"']]);
      // A here-string after another redirect (the grammar rejects it; src/engine/parse/read-write.ts).
      expect(simpleOf('cmd > a <<< s').redirects.map((r) => [r.op, r.target?.text])).toEqual([['>', 'a'], ['<<<', 's']]);
    });

    it('heredoc with an unquoted delimiter: expansions in the body', () => {
      const r = simpleOf('cat <<EOF\nhi $HOME $(id) \\$x\nEOF\n').redirects[0]!;
      expect(r.op).toBe('<<');
      expect(r.heredoc!.quoted).toBe(false);
      expect(r.heredoc!.delimiter).toBe('EOF');
      expect(strip(r.heredoc!.body.parts).map((p) => p.kind)).toEqual(['text', 'param', 'text', 'command-sub', 'text']);
      expect(r.heredoc!.body.parts.at(-1)).toEqual(t(' $x\n', 'heredoc'));
    });

    it("heredoc with a quoted delimiter ('EOF', \"EOF\", \\EOF): the body is literal", () => {
      for (const d of ["'EOF'", '"EOF"', '\\EOF']) {
        const r = simpleOf(`cat <<${d}\n$HOME $(id)\nEOF\n`).redirects[0]!;
        expect(r.heredoc).toMatchObject({ delimiter: 'EOF', quoted: true });
        expect(strip(r.heredoc!.body.parts)).toEqual([t('$HOME $(id)\n', 'heredoc')]);
      }
    });

    it('<<- strips leading tabs, as bash does', () => {
      const src = 'cat <<-EOF\n\t\tx\n\ty\n\tEOF\n';
      expect(bashOut(src)).toBe('x\ny\n');
      const r = simpleOf(src).redirects[0]!;
      expect(r.op).toBe('<<-');
      expect(r.heredoc!.body.parts.map((p) => (p.kind === 'text' ? p.value : '?')).join('')).toBe('x\ny\n');
    });
  });

  describe('words', () => {
    it('quoting kinds: single, double, escape, ANSI-C, locale', () => {
      expect(wordParts("echo 'a $b'")).toEqual([t('a $b', 'single')]);
      expect(wordParts('echo "a\\"b\\$c\\d"')).toEqual([t('a"b$c\\d', 'double')]);
      expect(wordParts('echo \\$HOME')).toEqual([t('$', 'escape'), t('HOME')]);
      expect(wordParts("echo $'a\\tb'")).toEqual([t('a\tb', 'ansi-c')]);
      expect(wordParts('echo $"hello"')).toEqual([t('hello', 'locale')]);
      expect(wordParts('echo a"b"\'c\'')).toEqual([t('a'), t('b', 'double'), t('c', 'single')]);
    });

    it('parameter expansions, including defaults', () => {
      const p = (src: string) => wordParts(`echo ${src}`)[0] as Extract<WordPart, { kind: 'param' }>;
      expect(p('$HOME')).toMatchObject({ kind: 'param', name: 'HOME', op: null, arg: null, quoted: false });
      expect(p('${HOME}')).toMatchObject({ name: 'HOME', op: null });
      expect(p('${X:-/tmp/d}')).toMatchObject({ name: 'X', op: ':-', arg: { text: '/tmp/d', parts: [t('/tmp/d')] } });
      expect(p('${X-$HOME/x}')).toMatchObject({ name: 'X', op: '-', arg: { text: '$HOME/x' } });
      expect(p('${X:=y}')).toMatchObject({ op: ':=', arg: { text: 'y' } });
      expect(p('${X:+y}')).toMatchObject({ op: ':+' });
      expect(p('${X:?}')).toMatchObject({ op: ':?' });
      expect(p('${#X}')).toMatchObject({ name: 'X', op: '#' });
      expect(p('${X%/*}')).toMatchObject({ name: 'X', op: '%', arg: { text: '/*' } });
      expect(p('${!X}')).toMatchObject({ name: 'X', op: '!' });
      expect(p('$1')).toMatchObject({ name: '1' });
      expect(p('$@')).toMatchObject({ name: '@' });
      expect(wordParts('echo "$X"')[0]).toMatchObject({ kind: 'param', name: 'X', quoted: true });
    });

    it('command substitution, both spellings, and process substitution', () => {
      const cs = wordParts('echo $(rm -f x)')[0]!;
      expect(cs).toMatchObject({ kind: 'command-sub', quoted: false, text: '$(rm -f x)' });
      if (cs.kind === 'command-sub') expect(cs.body).toEqual(seq(simple(['rm', '-f', 'x'])));
      expect(wordParts('echo `pwd`')[0]).toMatchObject({ kind: 'command-sub', text: '`pwd`' });
      expect(wordParts('echo "$(pwd)"')[0]).toMatchObject({ kind: 'command-sub', quoted: true });
      expect(wordParts('cat <(ls)', 1)[0]).toMatchObject({ kind: 'process-sub', direction: '<', body: seq(simple(['ls'])) });
      expect(wordParts('tee >(wc -l)', 1)[0]).toMatchObject({ kind: 'process-sub', direction: '>' });
    });

    it('tilde only at the start of an unquoted word', () => {
      expect(wordParts('echo ~/a')).toEqual([{ kind: 'tilde', user: '' }, t('/a')]);
      expect(wordParts('echo ~bob/c')).toEqual([{ kind: 'tilde', user: 'bob' }, t('/c')]);
      expect(wordParts('echo ~')).toEqual([{ kind: 'tilde', user: '' }]);
      expect(wordParts('echo a~')).toEqual([t('a~')]);
      expect(wordParts('echo "~"')).toEqual([t('~', 'double')]);
      expect(wordParts("echo '~'/x")).toEqual([t('~', 'single'), t('/x')]);
    });

    it('brace expansion and globs stay unquoted literal text', () => {
      expect(wordParts('echo {a,b}/*.txt')).toEqual([t('{a,b}/*.txt')]);
      expect(wordParts('echo x{1..3}')).toEqual([t('x{1..3}')]);
      expect(wordParts('rm -rf ?[ab]*')).toEqual([t('-rf')]);
      expect(wordParts('rm -rf ?[ab]*', 2)).toEqual([t('?[ab]*')]);
      expect(wordParts('echo "*"')).toEqual([t('*', 'double')]);
    });

    it('arithmetic expansion keeps its command substitutions', () => {
      const a = wordParts('echo $((1 + $(rm x)))')[0]!;
      expect(a).toMatchObject({ kind: 'arith', text: '$((1 + $(rm x)))' });
      if (a.kind === 'arith') expect(a.subs).toEqual([seq(simple(['rm', 'x']))]);
    });

    it('an array subscript as written keeps its word: expansions are parts, the rest text', () => {
      const src = 'echo ${a[$(rm x)+1]} "${m["$k"]:-d}" ${a[ ( `rm q` ) ]} ${a[<(ls)]} ${a[i]} $b';
      const params = simpleOf(src).words.slice(1).map((w) => w.parts[0] as Extract<WordPart, { kind: 'param' }>);
      const kinds = params.map((p) => p.subscript?.parts.map((q) => q.kind));
      expect(kinds).toEqual([['command-sub', 'text'], ['param'], ['text', 'command-sub', 'text'], ['text'], ['text'], undefined]);
      expect(params.map((p) => p.subscript?.text)).toEqual(['$(rm x)+1', '"$k"', ' ( `rm q` ) ', '<(ls)', 'i', undefined]);
      // `<(` in a subscript is text to bash (an arithmetic syntax error), never a process substitution.
      expect(params[3]!.subscript!.parts).toEqual([t('<(ls)', 'double')]);
      for (const p of params) if (p.subscript) expect(src.slice(p.subscript.range.start, p.subscript.range.end)).toBe(p.subscript.text);
      const sub = params[0]!.subscript!.parts[0]!;
      if (sub.kind === 'command-sub') expect(strip(sub.body)).toEqual(seq(simple(['rm', 'x'])));
    });

    it('a pattern the grammar leaves one token (`${x#$p}`) has its parameters read, as bash expands them', () => {
      const arg = (src: string) => (wordParts(`echo ${src}`)[0] as Extract<WordPart, { kind: 'param' }>).arg!.parts;
      const param = (name: string, quoted = false, text = `$${name}`) => ({ kind: 'param', name, op: null, arg: null, quoted, text });
      expect(arg('${x#$p}')).toEqual([param('p')]);
      expect(arg('${x%%${e}.*}')).toEqual([param('e', false, '${e}'), t('.*')]);
      expect(arg('${x/#$1/r}')).toEqual([param('1'), t('/r')]);
      expect(arg('${x//${m[1]}/r}')).toEqual([param('m[1]', false, '${m[1]}'), t('/r')]);
      expect(arg("${x//\\$p'$q'$'\\n'}")).toEqual([t('$', 'escape'), t('p'), t('$q', 'single'), t('\n', 'ansi-c')]);
      expect(arg('${x%a$}')).toEqual([t('a$')]);
      expect(bashOut("x='a$b\n'; p=a; echo \"${x#$p}|${x%$'\\n'}|${x#\\$p}\"")).toBe('$b\n|a$b|a$b\n\n');
      // What only the parser can read is not taken as text: unknown, and a problem.
      const s = script('echo ${x#$(rm f)} ${x%`rm g`}');
      expect(s.problems.map((p) => p.reason)).toEqual(['an expansion in a pattern the parser left unread', 'an expansion in a pattern the parser left unread']);
    });

    it('an assignment to an element keeps its subscript word; `declare` and `local` too', () => {
      const set = simpleOf('a[`rm y`]=v');
      expect(set.assigns[0]).toMatchObject({ name: 'a[`rm y`]', subscript: { text: '`rm y`' } });
      expect(set.assigns[0]!.subscript!.parts.map((p) => p.kind)).toEqual(['command-sub']);
      const decl = simpleOf('declare a[$(rm z)]=1');
      expect(decl.declarations[0]!.subscript!.parts.map((p) => p.kind)).toEqual(['command-sub']);
      expect(simpleOf('x=1').assigns[0]!.subscript).toBeUndefined();
    });
  });

  describe('ranges', () => {
    it('byte offsets and 1-based line:column', () => {
      const src = 'echo a\n  cat > out.txt\n';
      const s = clean(src);
      const cat = s.body.items[1]!.command as SimpleCommand;
      expect(cat.range).toEqual({ start: 9, end: 22, line: 2, column: 3, endLine: 2, endColumn: 16 });
      expect(src.slice(cat.range.start, cat.range.end)).toBe('cat > out.txt');
      const target = cat.redirects[0]!.target!;
      expect(target.range).toMatchObject({ start: 15, end: 22, line: 2, column: 9 });
      expect(src.slice(target.range.start, target.range.end)).toBe('out.txt');
    });

    it('ranges of nested words slice back to their text', () => {
      const src = 'if true; then\n\tcp "$(pwd)/a b" ~/c; fi';
      const s = clean(src);
      const c = s.body.items[0]!.command;
      if (c.kind !== 'if') throw new Error(c.kind);
      const cp = (c.branches[0]!.body as { items: { command: SimpleCommand }[] }).items[0]!.command;
      for (const w of cp.words) expect(src.slice(w.range.start, w.range.end)).toBe(w.text);
      expect(cp.words[1]!.range).toMatchObject({ line: 2, column: 5 });
    });

    it('offsets count UTF-16 code units after non-ASCII text', () => {
      const src = 'echo "é🙂"; rm x';
      const rm = clean(src).body.items[1]!.command as SimpleCommand;
      expect(src.slice(rm.range.start, rm.range.end)).toBe('rm x');
    });
  });

  // ---- grammar quirks (src/engine/syntax/build.ts header) ------------------------------------------------

  describe('grammar quirks', () => {
    it('`a && b > f`: the redirect belongs to b only (bash)', () => {
      expect(bashOut('cd "$(mktemp -d)" && echo A && echo B > f; cat f; rm -r "$PWD"')).toBe('A\nB\n');
      expect(shape('a && b > f')).toEqual([{ kind: 'and-or', op: '&&', left: simple(['a']), right: simple(['b'], [redir('>', 'f')]) }]);
    });

    it('`a | b > f`: the redirect belongs to the last command of the pipeline', () => {
      expect(shape('a | b > f')).toEqual([{ kind: 'pipeline', commands: [simple(['a']), simple(['b'], [redir('>', 'f')])], negated: false }]);
      expect(shape('a && b | c > f || d')).toEqual([
        {
          kind: 'and-or', op: '||',
          left: { kind: 'and-or', op: '&&', left: simple(['a']), right: { kind: 'pipeline', commands: [simple(['b']), simple(['c'], [redir('>', 'f')])], negated: false } },
          right: simple(['d']),
        },
      ]);
    });

    it('`! a > f`: the redirect belongs to a', () => {
      expect(shape('! a > f')).toEqual([{ kind: 'pipeline', commands: [simple(['a'], [redir('>', 'f')])], negated: true }]);
    });

    it('heredoc + redirect: `cat > f <<EOF` and `cat <<EOF > f` give the command both redirects', () => {
      for (const src of ['cat > f <<EOF\nx\nEOF\n', 'cat <<EOF > f\nx\nEOF\n']) {
        const c = simpleOf(src);
        expect(c.words.map((w) => w.text)).toEqual(['cat']);
        expect(c.redirects.map((r) => r.op).sort()).toEqual(['<<', '>']);
        expect(c.redirects.find((r) => r.op === '>')!.target!.text).toBe('f');
        expect(c.redirects.find((r) => r.op === '<<')!.heredoc!.body.text).toBe('x\n');
      }
    });

    it('heredoc + pipeline: `cat <<EOF | bash` is a two-command pipeline fed by the heredoc', () => {
      const p = first('cat <<EOF | bash\nrm -rf /x\nEOF\n');
      if (p.kind !== 'pipeline') throw new Error(p.kind);
      expect(p.commands).toHaveLength(2);
      const cat = p.commands[0] as SimpleCommand;
      expect(cat.redirects[0]!.heredoc!.body.text).toBe('rm -rf /x\n');
      expect(strip(p.commands[1])).toEqual(simple(['bash']));
      expect(p.range.start).toBe(0);
    });

    it('heredoc + &&: `cat <<EOF && next` keeps next outside the heredoc', () => {
      expect(bashOut("cat <<'EOF' && echo done\n$HOME\nEOF\n")).toBe('$HOME\ndone\n');
      const c = first("cat <<'EOF' && echo done\n$HOME\nEOF\n");
      expect(strip(c)).toMatchObject({ kind: 'and-or', op: '&&', right: simple(['echo', 'done']) });
      if (c.kind === 'and-or') expect((c.left as SimpleCommand).redirects[0]!.heredoc).toMatchObject({ quoted: true, body: { text: '$HOME\n' } });
      expect(strip(first('cat <<EOF || rm x\nEOF\n'))).toMatchObject({ kind: 'and-or', op: '||', right: simple(['rm', 'x']) });
      expect(strip(first('cat <<EOF | grep a > out\nx\nEOF\n'))).toMatchObject({ kind: 'pipeline', commands: [{ kind: 'simple' }, simple(['grep', 'a'], [redir('>', 'out')])] });
    });

    it('heredoc followed by `; next` on the same line: analyzed whole or reported, never half', () => {
      expect(bashOut('cat <<EOF; echo next\ny\nEOF\n')).toBe('y\nnext\n');
      const s = script('cat <<EOF; rm x\ny\nEOF\n');
      const all = JSON.stringify(strip(s.body));
      // tree-sitter-bash 0.25.1 misses the heredoc end here; the builder must report it.
      if (s.problems.length === 0) {
        expect(all).toContain('"rm"');
        expect(all).toContain('"y\\n"');
      } else expect(s.problems[0]!.reason).toMatch(/missing|syntax/);
    });

    it('two heredocs on one command are not analyzed silently (the grammar misreads the second)', () => {
      const s = script('cat <<A <<B\na\nA\nb\nB\n');
      expect(s.problems.length).toBeGreaterThan(0);
    });

    it('`cmd 2>&- x`: the word after a close is an argument (the grammar makes it the destination)', () => {
      const c = simpleOf('rm 2>&- /home/dev/repo/README.md -f');
      expect(c.words.map((w) => w.text)).toEqual(['rm', '/home/dev/repo/README.md', '-f']);
      expect(c.redirects.map((r) => [r.op, r.fd, r.target])).toEqual([['>&-', 2, null]]);
      expect(simpleOf('cmd a >&- b').words.map((w) => w.text)).toEqual(['cmd', 'a', 'b']);
      const { verdict } = runScenario(parser, 'rm 2>&- /home/dev/repo/README.md');
      expect(verdict.decision).toBe('deny');
    });

    it('`rm > /dev/null /x`: only the first word after `>` is the target, the rest are arguments', () => {
      const c = simpleOf('rm > /dev/null /home/dev/repo/README.md -f');
      expect(c.words.map((w) => w.text)).toEqual(['rm', '/home/dev/repo/README.md', '-f']);
      expect(c.redirects.map((r) => [r.op, r.target?.text])).toEqual([['>', '/dev/null']]);
      expect(runScenario(parser, 'rm > /dev/null /home/dev/repo/README.md').verdict.decision).toBe('deny');
      expect(runScenario(parser, 'cp /etc/hosts 2> /dev/null /home/dev/repo/README.md').verdict.decision).toBe('deny');
      // `>&3 0<&3`: the `0` is the next redirect's fd.
      expect(simpleOf('cmd >&3 0<&3').redirects.map((r) => [r.op, r.fd, r.target?.text])).toEqual([['>&', null, '3'], ['<&', 0, '3']]);
      expect(simpleOf('cmd >&3 0<&3').words.map((w) => w.text)).toEqual(['cmd']);
    });

    it('`3<>f`: read-write open on fd 3 (the grammar yields `<` + ERROR `>`)', () => {
      const c = simpleOf('exec 3<>f');
      expect(c.redirects.map((r) => [r.op, r.fd, r.target?.text])).toEqual([['<>', 3, 'f']]);
      expect(simpleOf('cat <> g').redirects.map((r) => [r.op, r.fd, r.target?.text])).toEqual([['<>', null, 'g']]);
    });

    it('`$"x"`: a locale string is one word, not `$` + string', () => {
      const c = simpleOf('echo $"x $y" z');
      expect(c.words.map((w) => w.text)).toEqual(['echo', '$"x $y"', 'z']);
      expect(strip(c.words[1]!.parts)).toEqual([t('x ', 'locale'), { kind: 'param', name: 'y', op: null, arg: null, quoted: true, text: '$y' }]);
      expect(c.words[1]!.range).toMatchObject({ start: 5, end: 12 });
    });

    it('case items ending in ;;, ;& and ;;& all keep their bodies', () => {
      const c = first('case $x in a) echo a;; b) echo b;& c) echo c;;& *) echo d;; esac');
      if (c.kind !== 'case') throw new Error(c.kind);
      expect(c.items.map((i) => [i.patterns.map((p) => p.text).join('|'), JSON.stringify(strip(i.body))])).toEqual([
        ['a', JSON.stringify(seq(simple(['echo', 'a'])))],
        ['b', JSON.stringify(seq(simple(['echo', 'b'])))],
        ['c', JSON.stringify(seq(simple(['echo', 'c'])))],
        ['*', JSON.stringify(seq(simple(['echo', 'd'])))],
      ]);
      // And the last item may omit its terminator.
      expect((first('case x in a) echo a\nesac') as { items: unknown[] }).items).toHaveLength(1);
    });

    it("`$'..'` escapes decode as bash does: \\x2f, octal, \\u, \\c, \\e", () => {
      expect(wordParts("echo $'\\x2f\\101\\u00e9\\n'")).toEqual([t('/Aé\n', 'ansi-c')]);
      expect(wordParts("echo $'\\x2fetc\\x2fpasswd'")).toEqual([t('/etc/passwd', 'ansi-c')]);
      expect(decodeAnsiC('\\x2f\\057\\u002f\\U0000002f')).toBe('////');
      // Checked against bash: octal with 3 digits max, \x with 2 digits max, \cA is ^A.
      const bash = bashOut("printf %s $'\\0101\\x41A\\cA\\e\\'\\\\z'");
      expect(decodeAnsiC("\\0101\\x41A\\cA\\e\\'\\\\z")).toBe(bash);
      expect(decodeAnsiC('\\q')).toBe('\\q');
    });

    it('comments everywhere: after commands, inside case, in pipelines and lists', () => {
      expect(shape('echo a # c > f\nb # d')).toEqual([simple(['echo', 'a']), simple(['b'])]);
      expect(shape('echo a | # c\nb')).toEqual([{ kind: 'pipeline', commands: [simple(['echo', 'a']), simple(['b'])], negated: false }]);
      expect(shape('a && # c\nb')).toEqual([{ kind: 'and-or', op: '&&', left: simple(['a']), right: simple(['b']) }]);
      const c = first('case x in # c\na) # d\necho a;; # e\nesac');
      expect(strip(c)).toMatchObject({ kind: 'case', items: [{ patterns: [lit('a')], body: seq(simple(['echo', 'a'])) }] });
      expect(strip(first('if a; then # c\nb # d\nfi'))).toMatchObject({ kind: 'if', branches: [{ body: seq(simple(['b'])) }] });
      expect(strip(first('{ # c\na; }'))).toMatchObject({ kind: 'group', body: seq(simple(['a'])) });
      expect(shape('# only a comment')).toEqual([]);
      // `#` inside a word is not a comment.
      expect(shape('echo a#b')).toEqual([simple(['echo', 'a#b'])]);
    });

    it('line continuations join words, commands and operators', () => {
      expect(shape('echo a \\\nb')).toEqual([simple(['echo', 'a', 'b'])]);
      expect(shape('echo a && \\\n b')).toEqual([{ kind: 'and-or', op: '&&', left: simple(['echo', 'a']), right: simple(['b']) }]);
      // Inside a word too (the grammar splits it in two; the builder joins it back).
      const rm = simpleOf('rm /ho\\\nme/x y');
      expect(rm.words.map((w) => w.parts.map((p) => (p.kind === 'text' ? p.value : '?')).join(''))).toEqual(['rm', '/home/x', 'y']);
      expect(rm.words[1]!.text).toBe('/ho\\\nme/x');
      const red = simpleOf('echo x > /ho\\\nme/x');
      expect(red.words.map((w) => w.text)).toEqual(['echo', 'x']);
      expect(red.redirects[0]!.target!.parts).toEqual([t('/home/x')]);
      expect(simpleOf('/bin/r\\\nm x').words.map((w) => w.parts.map((p) => (p.kind === 'text' ? p.value : '?')).join(''))).toEqual(['/bin/rm', 'x']);
      expect(simpleOf('echo a\\\n~b').words[1]!.parts).toEqual([t('a~b')]);
      expect(bashOut('echo /ho\\\nme/x')).toBe('/home/x\n');
      expect(shape('echo a | \\\n tee f')).toEqual([{ kind: 'pipeline', commands: [simple(['echo', 'a']), simple(['tee', 'f'])], negated: false }]);
    });

    it('`if`/`while` conditions with `;` terminators', () => {
      expect(strip(first('while a; b; do c; done'))).toMatchObject({ condition: seq(simple(['a']), simple(['b'])) });
    });

    it('nested if closed as `fi fi` is never dropped silently (grammar ERROR)', () => {
      const s = script('if true; then if true; then echo x > /home/dev/repo/README.md; fi fi');
      expect(s.problems.length).toBeGreaterThan(0);
      const { verdict } = runScenario(parser, 'if true; then if true; then echo x > /home/dev/repo/README.md; fi fi');
      expect(verdict.decision).not.toBe('allow');
    });

    it('non-ASCII "identifiers" are words, as in bash (`à=b foo` runs `à=b`)', () => {
      expect(simpleOf('à=b foo').words.map((w) => w.text)).toEqual(['à=b', 'foo']);
      expect(simpleOf('à=b foo').assigns).toEqual([]);
    });
  });

  describe('unanalyzable input becomes unknown, never disappears', () => {
    it.each([
      ['echo "unterminated', /missing|syntax/],
      ['if true; then echo', /missing|syntax/],
      ['echo $(', /missing|syntax/],
      ['cat <<EOF > f | wc\nx\nEOF\n', /syntax/],
    ])('%j has a problem', (src, reason) => {
      const s = script(src);
      expect(s.problems.length).toBeGreaterThan(0);
      expect(s.problems.map((p) => p.reason).join(' ')).toMatch(reason);
    });
  });
});
