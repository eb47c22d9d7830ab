/**
 * Arithmetic runs code (src/engine/interpret/arith-code.ts): a subscript written in the command
 * runs its substitutions from the IR, at their own place in the source; a subscript or expression
 * that is a runtime value is parsed at analysis time. What bash does in each case was checked
 * with bash 5.2 (`bash -c`, then the files it left).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { MAX_ARITH_DEPTH } from '../../../../src/engine/interpret/arith-code.js';
import { mayRunCommandSubstitution } from '../../../../src/engine/shell/code-text.js';
import { runScenario } from '../../../helpers/scenario.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const run = (cmd: string) => runScenario(parser, cmd).verdict;
const decide = (cmd: string) => run(cmd).decision;

describe('a subscript as written runs its substitutions from the IR', () => {
  it.each([
    'a=(1); echo ${a[$(touch ../../README.md)]}',
    'a[$(touch ../../README.md)+1]=v',
    'declare -A m; m[`touch ../../README.md`]=1',
    'f() { local a[$(touch ../../README.md)]=1; }; f',
    'echo "${a[1+$((2*$(touch ../../README.md)))]:-x}"',
  ])('%s: the write is found where the substitution is written', (cmd) => {
    const v = run(cmd);
    expect(v.decision).toBe('deny');
    const at = v.findings.find((f) => f.rule === 'BG1002')!.range;
    expect(cmd.slice(at.start, at.end)).toBe('touch ../../README.md');
  });

  it('an assignment in a subscript (`${x:=v}`) sets the variable, as bash expands it', () => {
    // (an associative array's key is no arithmetic: `../..` as an index would end bash's script)
    expect(decide('declare -A m; echo ${m[${x:=../..}]}; touch $x/f')).toBe('deny');
    expect(decide('declare -A m; echo ${m[${x:=src}]}; touch $x/f')).toBe('allow');
  });

  it('`<(cmd)` in a subscript is text to bash (an arithmetic syntax error): cmd never runs', () => {
    expect(decide('a=(1); echo ${a[<(touch ../../README.md)]}')).toBe('allow');
    expect(decide('declare -A m; m[<(touch ../../README.md)]=1')).toBe('allow');
  });

  it('the variables a written subscript names are still evaluated, through their values', () => {
    expect(decide("x='b[$(touch ../../README.md)]'; a=(1); echo ${a[x+$(true)]}")).toBe('deny');
    expect(decide("x='b[$(touch notes.txt)]'; a=(1); echo ${a[x+$(true)]}")).toBe('allow');
  });
});

describe('text bash expands later: a command substitution in it runs, a process substitution does not', () => {
  it('mayRunCommandSubstitution', () => {
    expect(['$(id)', 'a[$((1+2))]', 'a[`id`]', 'x$(']).toEqual(['$(id)', 'a[$((1+2))]', 'a[`id`]', 'x$('].filter(mayRunCommandSubstitution));
    expect(['<(id)', '>(id)', '$id', '${a[1]}', 'a[1]', '$ (id)'].filter(mayRunCommandSubstitution)).toEqual([]);
  });

  // bash 5.2 runs none of these `<(...)`: a subscript is an arithmetic syntax error, a prompt shows the text.
  it.each([
    ["x='a[<(touch ../../README.md)]'; echo $((x))", "x='a[$(touch ../../README.md)]'; echo $((x))"],
    ["read 'a[<(touch ../../README.md)]' <<< x", "read 'a[$(touch ../../README.md)]' <<< x"],
    ["x='<(touch ../../README.md)'; echo ${x@P}", "x='$(touch ../../README.md)'; echo ${x@P}"],
    ["PS4='<(touch ../../README.md) '; set -x; true", "PS4='$(touch ../../README.md) '; set -x; true"],
  ])('%s: allowed (its twin with $(...) is not)', (proc, cmd) => {
    expect(decide(proc)).toBe('allow');
    expect(decide(cmd)).not.toBe('allow');
  });
});

describe('a subscript given as a value is parsed at analysis time', () => {
  it.each([
    ["r='a[$(touch ../../README.md)]'; echo ${!r}", 'deny'],
    ["r='a[$(touch notes.txt)]'; echo ${!r}", 'allow'],
    ["read 'a[$(touch ../../README.md)]' <<< x", 'deny'],
    ["printf -v 'a[$(touch ../../README.md)]' x", 'deny'],
  ])('%s: %s', (cmd, want) => {
    expect(decide(cmd)).toBe(want);
  });

  it('a substitution in such a value with a part not known statically is dynamic code, never dropped', () => {
    for (const cmd of ['x="a[\\$(touch ../../README.md$f)]"; echo $((x))', 'read "a[\\$(touch ../../README.md$f)]" <<< x']) {
      const v = run(cmd);
      expect(v.decision, cmd).toBe('ask');
      expect(v.findings.map((f) => f.rule), cmd).toContain('BG4002');
    }
    // A value not known statically is taken to hold no such subscript (docs/limits.md).
    expect(decide('x="a[$f]"; echo $((x))')).toBe('allow');
  });
});

describe('values naming values, deeper than the analysis follows', () => {
  /** `v0=v1; v1=v2; ...`: `links` variables, the last holding `code`; then `$((v0))` (bash follows 1024 levels). */
  const chain = (links: number, code: string) => {
    const vars = Array.from({ length: links - 1 }, (_, i) => `v${i}=v${i + 1}`);
    return `${vars.join('; ')}; v${links - 1}='a[$(${code})]'; echo $((v0))`;
  };

  it('a chain the analysis follows to its end runs the code there', () => {
    expect(decide(chain(MAX_ARITH_DEPTH, 'touch ../../README.md'))).toBe('deny');
    expect(decide(chain(MAX_ARITH_DEPTH, 'touch notes.txt'))).toBe('allow');
  });

  it('one level deeper is an analysis limit (ask), never a silent allow', () => {
    for (const code of ['touch ../../README.md', 'touch notes.txt']) {
      const v = run(chain(MAX_ARITH_DEPTH + 1, code));
      expect(v.decision).toBe('ask');
      const limit = v.findings.filter((f) => f.rule === 'BG0002');
      expect(limit).toHaveLength(1);
      expect(limit[0]!.message).toContain(`more than ${MAX_ARITH_DEPTH} levels deep (at v${MAX_ARITH_DEPTH})`);
    }
  });

  it('many names side by side, or names that name each other in a loop, are no limit', () => {
    const names = Array.from({ length: 40 }, (_, i) => `v${i}`);
    expect(decide(`${names.map((n) => `${n}=${n}x; ${n}x=1`).join('; ')}; echo $((${names.join('+')}))`)).toBe('allow');
    expect(decide('a=b; b=a; echo $((a))')).toBe('allow');
  });
});
