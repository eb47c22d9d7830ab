/**
 * Interpreter mechanisms that the corpus cannot show on its own: the Host's `stat` is what
 * decides file tests (injectable, and without it nothing is decided), descriptor paths never go
 * through the analyzing process (a hook whose stderr is a pipe), which builtins have only a
 * shell-level part, and the pieces of the interpreter (printf, conditions, `..` after unknown text) on small inputs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import { evaluate } from '../../../../src/policy/policy.js';
import { memoryFs, standardEnv, standardPolicy, WORKTREE, MAIN } from '../../../../src/policy/scenario/standard.js';
import type { Host } from '../../../../src/engine/interpret/interpreter.js';
import type { PhysicalFs } from '../../../../src/policy/physical.js';
import { knownCommands, lookupCommand, shellBuiltin } from '../../../../src/engine/commands/registry.js';
import { formatPrintf } from '../../../../src/engine/commands/printf-format.js';
import { evaluateTest, type FileKind } from '../../../../src/engine/shell/conditions.js';
import { collapseHoleDots, descriptorOfPath } from '../../../../src/engine/shell/paths.js';
import { HOLE } from '../../../../src/engine/effects/types.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

function decide(cmd: string, host: Host = {}, links?: PhysicalFs): string {
  const analysis = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(), host });
  const fs = memoryFs();
  if (links) fs.readlink = links.readlink;
  return evaluate(analysis.effects, standardPolicy(fs)!).decision;
}

describe('file tests are decided through Host.stat', () => {
  const cmd = `if [ -d ${MAIN} ]; then cd ${MAIN}; fi; touch x`;

  it('a directory that exists makes the cd certain', () => {
    expect(decide(cmd, { stat: (p) => (p === MAIN ? 'directory' : null), searchable: () => true })).toBe('deny');
  });

  it('a directory that does not exist skips the branch', () => {
    expect(decide(cmd, { stat: (p) => (p === MAIN ? 'missing' : null) })).toBe('allow');
  });

  it('without stat (or when stat cannot tell) both outcomes count', () => {
    expect(decide(cmd, {})).toBe('ask');
    expect(decide(cmd, { stat: () => null })).toBe('ask');
  });

  it('a path the command changed earlier is not read from the disk', () => {
    const calls: string[] = [];
    const stat = (p: string): FileKind => {
      calls.push(p);
      return 'missing';
    };
    expect(decide(`rm -rf ${MAIN}/d; [ -d ${MAIN}/d ] || cd ${MAIN}; touch x`, { stat })).toBe('deny');
    expect(decide(`mkdir -p ${MAIN}/d; [ -d ${MAIN}/d ] || cd ${MAIN}; touch x`, { stat })).toBe('deny');
    // Only the directory the cd enters is read (nothing above it changed).
    expect(calls).not.toContain(`${MAIN}/d`);
    expect(calls.every((p) => p === MAIN)).toBe(true);
  });

  it('after a program the table does not know, or code not known statically, the disk is not read', () => {
    const stat = (): FileKind => 'directory';
    expect(decide(`[ -d ${MAIN} ] && cd ${MAIN}; touch x`, { stat, searchable: () => true })).toBe('deny');
    expect(decide(`no-such-tool; [ -d ${MAIN} ] || cd ${MAIN}; touch x`, { stat })).toBe('ask');
    expect(decide(`eval "$X"; [ -d ${MAIN} ] || cd ${MAIN}; touch x`, { stat })).toBe('ask');
  });
});

describe('descriptor paths are the command own, not the analyzing process', () => {
  // What the hook sees under Claude Code: its stderr is a pipe, so following /dev/stderr through
  // /proc/self lands on something outside every root.
  const hookFs: PhysicalFs = {
    readlink: (p) => ({ '/dev/stderr': '/proc/self/fd/2', '/dev/stdout': '/proc/self/fd/1', '/dev/fd': '/proc/self/fd', '/proc/self': '4242', '/proc/4242/fd/2': 'pipe:[77]', '/proc/4242/fd/1': 'pipe:[78]' })[p] ?? null,
  };

  it('writing the command own stderr/stdout is allowed', () => {
    for (const c of ['echo x >/dev/stderr', 'echo x > /dev/fd/2', 'echo x >/dev/stdout', 'echo x > /proc/self/fd/1', 'tee /dev/stderr <<< hi', 'echo hi > >(cat > /tmp/x)']) {
      expect(decide(c, {}, hookFs), c).toBe('allow');
    }
  });

  it('a descriptor the command pointed at a file writes that file', () => {
    expect(decide(`exec 2>${MAIN}/e.log; echo x >/dev/stderr`, {}, hookFs)).toBe('deny');
    expect(decide(`exec 7>${MAIN}/e.log; echo x >/dev/fd/7`, {}, hookFs)).toBe('deny');
    expect(decide('exec 7>/tmp/t.log; echo x >/dev/fd/7; exec 1>&7; echo y >/dev/stdout', {}, hookFs)).toBe('allow');
    expect(decide(`{ echo x >/dev/fd/1; } >${MAIN}/o.log`, {}, hookFs)).toBe('deny');
  });

  it('descriptorOfPath names the descriptors only', () => {
    expect(descriptorOfPath('/dev/stderr')).toBe(2);
    expect(descriptorOfPath('/proc/self/fd/12')).toBe(12);
    expect(descriptorOfPath('/dev/fd/3')).toBe(3);
    expect(descriptorOfPath('/dev/null')).toBeNull();
    expect(descriptorOfPath('/dev/fdx/3')).toBeNull();
  });
});

describe('builtins', () => {
  it('the builtins with a shell-level part and no table entry are the ones that change how later commands are read or run, and the keywords', () => {
    const shellOnly = knownCommands().filter((n) => shellBuiltin(n) !== undefined && lookupCommand(n) === undefined);
    const keywords = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', '{', '}', '!', '[[', ']]'];
    expect(shellOnly).toEqual(['alias', 'unalias', 'hash', 'trap', 'shopt', 'coproc', ...keywords].sort());
    // Refinements of table builtins keep their table entry (the handler may hand the command on).
    for (const n of [':', 'true', 'false', '[', 'test', 'read', 'mapfile', 'readarray', 'printf', 'pushd', 'popd', 'set', 'shift', 'let', 'getopts', 'break', 'continue']) {
      expect(shellBuiltin(n), n).toBeDefined();
      expect(lookupCommand(n), n).toBeDefined();
    }
  });
});

describe('pieces', () => {
  it('printf formats %s, %d, widths, escapes and reuses the format', () => {
    expect(formatPrintf('%s/%s', ['/home', 'repo'])).toBe('/home/repo');
    expect(formatPrintf('%s\\n', ['a', 'b'])).toBe('a\nb\n');
    expect(formatPrintf('%03d-%5s|', ['7', 'ab'])).toBe('007-   ab|');
    expect(formatPrintf('%d', ['x'])).toBe(HOLE);
    expect(formatPrintf('100%%', [])).toBe('100%');
  });

  it('test expressions: strings, numbers, -a/-o, !, and file kinds', () => {
    const f = (v: string, glob = false) => ({ value: v, confidence: 'certain' as const, evidence: [], glob });
    const ctx = (kind: FileKind | null) => ({ doubleBracket: false, fileKind: () => kind });
    expect(evaluateTest(['-n', 'x'].map((v) => f(v)), ctx(null))).toBe(true);
    expect(evaluateTest(['-z', 'x'].map((v) => f(v)), ctx(null))).toBe(false);
    expect(evaluateTest([f(HOLE)], ctx(null))).toBeNull();
    expect(evaluateTest(['-n', `a${HOLE}`].map((v) => f(v)), ctx(null))).toBe(true);
    expect(evaluateTest(['3', '-gt', '2'].map((v) => f(v)), ctx(null))).toBe(true);
    expect(evaluateTest(['!', '-d', '/x'].map((v) => f(v)), ctx('directory'))).toBe(false);
    expect(evaluateTest(['-d', '/x', '-a', '-f', '/y'].map((v) => f(v)), ctx('directory'))).toBe(false);
    expect(evaluateTest(['-e', '/x', '-o', 'a', '=', 'b'].map((v) => f(v)), ctx(null))).toBeNull();
    expect(evaluateTest(['-x', '/x'].map((v) => f(v)), ctx('missing'))).toBe(false);
    expect(evaluateTest(['-x', '/x'].map((v) => f(v)), ctx('file'))).toBeNull();
    expect(evaluateTest([f('a'), f('=='), f('a*', true)], { doubleBracket: true, fileKind: () => null })).toBeNull();
  });

  it('a .. after unknown text climbs from the known directory', () => {
    expect(collapseHoleDots(`/tmp/${HOLE}/../../home/x`)).toBe(`/${HOLE}`);
    expect(collapseHoleDots(`/a/b/${HOLE}/..`)).toBe(`/a/${HOLE}`);
    expect(collapseHoleDots(`/a/${HOLE}/b`)).toBe(`/a/${HOLE}/b`);
  });
});

describe('command traces (for explain) are optional', () => {
  it('without them the effects and cwd events are the same and no trace is kept', () => {
    const cmds = [
      'cd /tmp && for f in a b; do echo "$f" > "$f.txt"; done; git -C ' + MAIN + ' commit -m x',
      'f() { cd "$1" && touch x; }; f ' + MAIN + '; echo "$(pwd)" >> log',
      'bash -c "cp a ' + MAIN + '/b" && eval "rm -rf $HOME/tmp"',
    ];
    for (const cmd of cmds) {
      const on = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv() });
      const off = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(), commandTraces: false });
      expect(on.commands.length, cmd).toBeGreaterThan(0);
      expect(off.commands, cmd).toEqual([]);
      expect(off.effects, cmd).toEqual(on.effects);
      expect(off.timeline, cmd).toEqual(on.timeline);
    }
  });
});

describe('positional parameters (kept apart from the variables, saved and restored by reference)', () => {
  /** The words of each `echo` the command runs, as `explain` shows them. */
  const echoes = (cmd: string): string[][] =>
    analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv() }).commands.filter((c) => c.argv[0] === 'echo').map((c) => c.argv.slice(1));

  it('a call replaces $1 ... $N, $# and "$@"; the return puts back the caller\'s, through nested calls', () => {
    expect(echoes('g() { echo "$1" "$#" "$2"; }; f() { echo "$1" "$#" "$@"; g x; echo "$1" "$*"; }; set -- a b c; f p q; echo "$1" "$#" "$@" "$3"')).toEqual([
      ['p', '2', 'p', 'q'],
      // Unset: not known statically (the interpreter never claims a parameter is empty).
      ['x', '1', '…'],
      ['p', 'p q'],
      ['a', '3', 'a', 'b', 'c', 'c'],
    ]);
  });

  it('shift and set -- inside a function change only its own parameters', () => {
    expect(echoes('set -- a b; f() { shift; echo "$1" "$#"; set -- z; echo "$1" "$#"; }; f x y; echo "$1" "$#" "$2"')).toEqual([
      ['y', '1'],
      ['z', '1'],
      ['a', '2', 'b'],
    ]);
    // An unknown shift count makes them unknown.
    expect(echoes('set -- a b; shift $N; echo "$1" "$#"')).toEqual([['…', '…']]);
  });

  it('a subshell\'s set -- does not leak; branches that agree keep the value, branches that differ make it unknown', () => {
    expect(echoes('set -- a b; ( set -- c; echo "$1" ); echo "$1"')).toEqual([['c'], ['a']]);
    expect(echoes('set -- a; if [ -n "$X" ]; then set -- a; else set -- a; fi; echo "$1" "$#"')).toEqual([['a', '1']]);
    expect(echoes('set -- a; if [ -n "$X" ]; then set -- b c; fi; echo "$1" "$#" "$2"')).toEqual([['…', '…', '…']]);
    // A call in one branch only leaves the caller's parameters as they were.
    expect(echoes('f() { set -- z; }; set -- a; if [ -n "$X" ]; then f q; fi; echo "$1" "$#"')).toEqual([['a', '1']]);
  });

  it('bash -c CODE NAME ARGS: the child gets its own $1 ..., and names like 1 are not ordinary variables', () => {
    expect(echoes(`set -- a; bash -c 'echo "$1" "$2"' sh x y; echo "$1"`)).toEqual([['x', 'y'], ['a']]);
    expect(echoes('f() { echo "$1"; }; X=1; f "$X"; echo "$X"')).toEqual([['1'], ['1']]);
  });
});

describe('descriptors after branches (joinExtras)', () => {
  const writesTo = (cmd: string, path: string): number =>
    analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv() }).effects.filter((e) => e.kind === 'write' && e.path === path).length;

  it('a descriptor one branch opened may point there afterwards; one a command redirected for itself is back as it was', () => {
    const f = `${MAIN}/f`;
    expect(writesTo(`if [ -n "$X" ]; then exec 3>${f}; else echo a 2>/dev/null; fi; echo y >&3`, f)).toBe(2);
    expect(writesTo(`if [ -n "$X" ]; then echo a 3>${f}; else echo b 2>/dev/null; fi; echo y >&3`, f)).toBe(1);
    expect(writesTo(`exec 3>${f}; if [ -n "$X" ]; then echo a 3>/dev/null; else echo b 2>/dev/null; fi; echo y >&3`, f)).toBe(2);
  });
});

describe('a declaration builtin brace-expands its NAME=value argument (bash: one assignment per alternative)', () => {
  const written = (cmd: string): string[] =>
    analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv() }).effects.flatMap((e) => (e.kind === 'write' && e.path ? [e.path] : []));
  it('the last alternative holds; for a read-only name the first (the next assignment fails)', () => {
    expect(written('declare v=/a/{b,c}; touch "$v"')).toEqual(['/a/c']);
    expect(written('export v=/a/{b,c}; touch "$v"')).toEqual(['/a/c']);
    expect(written('readonly v=/a/{b,c}; touch "$v"')).toEqual(['/a/b']);
    expect(written('declare -r v=/a/{b,c}; touch "$v"')).toEqual(['/a/b']);
  });
  it('quoted braces, braces in a value and a plain assignment are not expanded', () => {
    expect(written('declare v="/a/{b,c}"; touch "$v"')).toEqual(['/a/{b,c}']);
    expect(written('b={b,c}; declare v=/a/$b; touch "$v"')).toEqual(['/a/{b,c}']);
    expect(written('v=/a/{b,c}; touch "$v"')).toEqual(['/a/{b,c}']);
  });
});
