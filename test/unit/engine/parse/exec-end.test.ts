/**
 * src/engine/parse/exec-end.ts: bash never reads past a top-level `exec COMMAND` line. The parser cuts
 * the input there, on both backends, and only where every condition holds (the corpus cases in
 * corpus/parse-recovery.yaml check the outcome against real bash).
 */
import { describe, expect, it } from 'vitest';
import { unless } from '../../../helpers/shared.js';
import { readFileSync, existsSync } from 'node:fs';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { endsInExec, execLines, firstErrorAt } from '../../../../src/engine/parse/exec-end.js';

const TCL = '#!/bin/sh\n# the next line is run by sh, not tcl \\\nexec tclsh "$0" ${1+"$@"}\n\nproc f {a} {\n  if {$a} { puts "x" }\n}\nset t [lindex $argv 0]\nf }{ $t\n';
const cutAt = TCL.indexOf('\n', TCL.indexOf('exec ')) + 1;

async function parsers(): Promise<BashParser[]> {
  return [await getParser('native'), await getParser('wasm')];
}

describe('parse stops after a top-level exec line', () => {
  it('a Tcl script behind `exec tclsh "$0"` parses without error, up to the exec line (native and WASM)', async () => {
    for (const p of await parsers()) {
      const r = p.parse(TCL);
      expect(r.ok, p.backend).toBe(true);
      if (!r.ok) continue;
      expect(r.hasErrors, p.backend).toBe(false);
      expect(r.source, p.backend).toBe(TCL.slice(0, cutAt));
      expect(r.root.end, p.backend).toBeLessThanOrEqual(cutAt);
    }
  });

  const kept: [string, string][] = [
    ['exec with redirects only', 'exec >/dev/null\n'],
    ['an argument that may be no field', 'exec "$@"\n'],
    ['an unquoted expansion', 'exec $CMD\n'],
    ['an option first', 'exec -a name tclsh\n'],
    ['a background exec', 'exec tclsh &\n'],
    ['a conditional exec', 'test -n "$x" && exec tclsh\n'],
    ['exec inside if', 'if true; then\nexec tclsh\nfi\n'],
    ['exec inside a function', 'f() {\nexec tclsh\n}\n'],
    ['execfail set before', 'shopt -s execfail\nexec tclsh\n'],
    ['a function named exec', 'exec() { :; }\nexec tclsh\n'],
    ['an alias', 'alias exec=echo\nexec tclsh\n'],
    ['a redirect on the exec', 'exec tclsh 2>/dev/null\n'],
    ['more on the line', 'exec tclsh; touch x\n'],
    ['exec in a heredoc body', 'cat <<EOF\nexec tclsh\nEOF\n'],
  ];
  for (const [what, head] of kept) {
    it(`keeps the whole input: ${what}`, async () => {
      const src = `${head}touch /tmp/after\n`;
      for (const p of await parsers()) {
        const r = p.parse(src);
        expect(r.ok && r.source, `${p.backend}: ${what}`).toBe(src);
      }
    });
  }

  it('a continued exec line is cut after its last line', async () => {
    const src = 'exec cp /dev/null \\\n  /tmp/target\ntouch /tmp/after\n';
    const r = (await getParser('native')).parse(src);
    expect(r.ok && r.source).toBe('exec cp /dev/null \\\n  /tmp/target\n');
  });

  it('an exec line after the first error is not a cut (bash meets that error first)', async () => {
    const src = 'echo "unterminated\nfi fi\nexec tclsh\nproc {\n';
    const r = (await getParser('native')).parse(src);
    expect(!r.ok || r.source === src).toBe(true);
  });

  it('execLines lists candidates in order, and endsInExec checks each', async () => {
    const src = 'a\nexec 3>log\n  exec foo \\\n bar\nexec x\n';
    const l2 = src.indexOf('  exec');
    const l3 = src.indexOf(' bar') + 5;
    expect(execLines(src, Infinity)).toEqual([
      { at: src.indexOf('exec 3'), end: l2 },
      { at: src.indexOf('exec foo'), end: l3 },
      { at: src.indexOf('exec x'), end: src.length },
    ]);
    expect(execLines(src, src.indexOf('exec x') - 1).map((l) => l.end)).toEqual([l2, l3]);
    const p = await getParser('native');
    const whole = p.parse('exec x\n');
    expect(whole.ok && endsInExec(whole.root, 'exec x\n')).toBe(true);
    const not = p.parse('exec "$@"\n');
    expect(not.ok && endsInExec(not.root, 'exec "$@"\n')).toBe(false);
  });

  it('an exec line inside a multi-line string is not a cut', async () => {
    const src = 'echo "#!/bin/sh\nexec sh \'$x\' \\"\\$@\\"" > f.sh\ntouch /tmp/after\n';
    for (const p of await parsers()) {
      const r = p.parse(src);
      expect(r.ok && !r.hasErrors && r.source, p.backend).toBe(src);
    }
  });

  it('without errors the tree is cut after the exec line, the same tree as the text up to it parses to', async () => {
    const src = 'A=1\nif true; then echo; fi\nexec true # done\ncd ..; touch x\n';
    const cut = src.indexOf('cd ..');
    for (const p of await parsers()) {
      const r = p.parse(src);
      const alone = p.parse(src.slice(0, cut));
      expect(r.ok && alone.ok, p.backend).toBe(true);
      if (!r.ok || !alone.ok) continue;
      expect(r.source).toBe(src.slice(0, cut));
      expect(r.root).toEqual(alone.root);
    }
  });

  it('execLines asks for a bound given as a function only when some line looks like exec, and once', () => {
    let calls = 0;
    const bound = (at: number) => () => {
      calls++;
      return at;
    };
    expect(execLines('echo exec is a word here\nfoo\n', bound(Infinity))).toEqual([]);
    expect(calls).toBe(0);
    const src = 'a\nexec x\nexec y\nexec z\n';
    expect(execLines(src, bound(src.indexOf('exec y')))).toEqual(execLines(src, src.indexOf('exec y')));
    expect(calls).toBe(1);
    expect(execLines(src, src.indexOf('exec y')).map((l) => l.at)).toEqual([src.indexOf('exec x'), src.indexOf('exec y')]);
  });

  it('firstErrorAt finds the first ERROR below the root, or Infinity', async () => {
    const p = await getParser('native');
    const ok = p.parse('echo hi\n');
    expect(ok.ok && firstErrorAt(ok.root)).toBe(Infinity);
  });

  const expect_ = '/usr/bin/expect_multixterm';
  it.skipIf(unless(existsSync(expect_), `${expect_} is not installed (expect; .ci/run installs it)`) !== null)(`a real expect script (${expect_}) reads as bash only up to its exec line`, async () => {
    const text = readFileSync(expect_, 'utf8');
    const r = (await getParser('native')).parse(text);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.hasErrors).toBe(false);
      expect(r.source.split('\n').filter(Boolean).at(-1)).toMatch(/^exec /);
    }
  });
});
