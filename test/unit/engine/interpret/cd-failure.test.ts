/**
 * A `cd` (pushd, popd) that may fail: bash prints an error, returns 1 and stays where it was, so
 * what follows with `;` runs in the old cwd with the old $OLDPWD and directory stack. The
 * interpreter keeps that path apart from the one where the cd succeeded, for `&&`, `||`, `if` and
 * `!` to pick, and joins the two after `;`. Whether a cd can fail is decided on the host's file
 * system (the standard scenario's): certain where the directory is there and can be entered, and
 * nothing before may have removed it; certainly failing where nothing is there.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getParser, type BashParser } from '../../../../src/engine/parse/index.js';
import { analyzeWith } from '../../../../src/engine/analyze.js';
import { memoryFs, standardEnv, WORKTREE, MAIN, OUTSIDE } from '../../../../src/policy/scenario/standard.js';
import type { Host } from '../../../../src/engine/interpret/interpreter.js';

let parser: BashParser;
beforeAll(async () => {
  parser = await getParser('native');
});

const SRC = `${WORKTREE}/src`;
/** The scenario's disk where the worktree holds nothing but what git checked out: `nosuch` is missing there. */
const complete = memoryFs({}, { [`${WORKTREE}/`]: '' });
/** The scenario's disk, where names it does not declare are unknown (`maybe` may or may not be there). */
const open = memoryFs();

/** The paths `touch` writes, sorted (every candidate cwd gives one). */
function touched(cmd: string, host: Host = open): string[] {
  const { effects } = analyzeWith(parser, cmd, { cwd: WORKTREE, env: standardEnv(), host });
  return [...new Set(effects.flatMap((e) => (e.kind === 'write' && e.op === 'create' && e.path ? [e.path] : [])))].sort();
}

describe('whether a cd succeeds is read from the host', () => {
  it('a directory that is there succeeds for certain: one path', () => {
    expect(touched('cd src; touch x')).toEqual([`${SRC}/x`]);
    expect(touched('cd ..; cd b1; touch x')).toEqual([`${WORKTREE}/x`]);
  });

  it('a directory not known to be there may not be entered: both paths', () => {
    expect(touched('cd maybe; touch x')).toEqual([`${WORKTREE}/maybe/x`, `${WORKTREE}/x`]);
  });

  it('a directory known to be missing is never entered', () => {
    expect(touched('cd nosuch; touch x', complete)).toEqual([`${WORKTREE}/x`]);
    expect(touched('cd /tmp; cd nosuch; touch x', memoryFs({}, { '/tmp/': '' }))).toEqual(['/tmp/x']);
  });

  it('without search permission known (Host#searchable), no cd is certain', () => {
    expect(touched('cd src; touch x', { stat: open.stat })).toEqual([`${WORKTREE}/src/x`, `${WORKTREE}/x`]);
    expect(touched('cd src; touch x', { stat: open.stat, searchable: () => false })).toEqual([`${WORKTREE}/src/x`, `${WORKTREE}/x`]);
  });

  it('what the command did before to the directory, or above it, unsettles it; a write below it does not', () => {
    expect(touched('rm -rf src; cd src; touch x')).toEqual([`${SRC}/x`, `${WORKTREE}/x`]);
    expect(touched(`chmod 000 ${WORKTREE}; cd src; touch x`)).toEqual([`${SRC}/x`, `${WORKTREE}/x`]);
    expect(touched('no-such-tool; cd src; touch x')).toEqual([`${SRC}/x`, `${WORKTREE}/x`]);
    expect(touched('echo a > src/a; mkdir -p src/b; cd src; touch x')).toEqual([`${SRC}/x`]);
  });

  it('more than one directory: bash 5 refuses, bash 3.2 takes the first', () => {
    expect(touched('cd src docs; touch x')).toEqual([`${SRC}/x`, `${WORKTREE}/x`]);
  });

  it('CDPATH: certain when the name itself is there (bash tries it last); entries known missing are left out', () => {
    expect(touched(`CDPATH=${OUTSIDE} cd src; touch x`, memoryFs({}, { [`${OUTSIDE}/`]: '' }))).toEqual([`${SRC}/x`]);
    expect(touched(`CDPATH=${OUTSIDE} cd src; touch x`)).toEqual([`${OUTSIDE}/src/x`, `${SRC}/x`]);
    expect(touched(`CDPATH=/tmp/.. cd maybe; touch x`, memoryFs({}, { '/maybe': 'a file' }))).toEqual([`${WORKTREE}/maybe/x`, `${WORKTREE}/x`]);
  });
});

describe('the exit status picks the path', () => {
  it('&& runs on the path where it succeeded, || where it failed', () => {
    expect(touched('cd maybe && touch x')).toEqual([`${WORKTREE}/maybe/x`]);
    expect(touched('cd maybe || touch x')).toEqual([`${WORKTREE}/x`]);
    expect(touched('cd maybe || exit 1; touch x')).toEqual([`${WORKTREE}/maybe/x`]);
    expect(touched('cd nosuch && touch x', complete)).toEqual([]);
  });

  it('a list hands on where it failed: cd a && cd b || ..., and after ; both', () => {
    expect(touched('cd src && cd maybe || touch x')).toEqual([`${SRC}/x`]);
    expect(touched('cd maybe && cd src || exit; touch x')).toEqual([`${WORKTREE}/maybe/src/x`]);
    expect(touched('cd maybe && true; touch x')).toEqual([`${WORKTREE}/maybe/x`, `${WORKTREE}/x`]);
    expect(touched('{ cd maybe; } || exit; touch x')).toEqual([`${WORKTREE}/maybe/x`]);
  });

  it('if and ! take the branch of each outcome', () => {
    expect(touched('if cd maybe; then touch a; else touch b; fi')).toEqual([`${WORKTREE}/b`, `${WORKTREE}/maybe/a`]);
    expect(touched('if ! cd maybe; then touch a; fi')).toEqual([`${WORKTREE}/a`]);
    expect(touched('! cd maybe || touch a')).toEqual([`${WORKTREE}/maybe/a`]);
  });

  it('a cd that may fail in a program\'s make-up (make && cd x) fails where either did', () => {
    expect(touched('make && cd maybe; touch x')).toEqual([`${WORKTREE}/maybe/x`, `${WORKTREE}/x`]);
  });

  it('set -e is not modelled: the failure path goes on (sound, not precise)', () => {
    expect(touched('set -e; cd maybe; touch x')).toEqual([`${WORKTREE}/maybe/x`, `${WORKTREE}/x`]);
  });
});

describe('$OLDPWD and the directory stack stay on the failure path', () => {
  it('cd - after a cd that may fail goes back to either', () => {
    expect(touched('cd src; cd maybe; cd -; touch x')).toEqual([`${SRC}/x`, `${WORKTREE}/x`]);
    expect(touched('cd src; cd nosuch; cd -; touch x', complete)).toEqual([`${WORKTREE}/x`]);
  });

  it('$OLDPWD with two candidates is not one value; with none yet on one path, it is unknown', () => {
    const { effects } = analyzeWith(parser, 'cd src; cd maybe; touch "$OLDPWD/x"', { cwd: WORKTREE, env: standardEnv(), host: open });
    const w = effects.find((e) => e.kind === 'write');
    expect(w && w.kind === 'write' && w.path).not.toBe(`${SRC}/x`);
    expect(touched('cd maybe; cd -; touch x')).not.toEqual([`${WORKTREE}/x`]);
  });

  it('a cd drops an $OLDPWD the script assigned, as bash sets it', () => {
    expect(touched(`OLDPWD=${MAIN}; cd src; cd -; touch x`)).toEqual([`${WORKTREE}/x`]);
    expect(touched(`cd src; OLDPWD=${MAIN}; cd -; touch x`)).toEqual([`${MAIN}/x`]);
  });

  it('pushd and popd that may fail leave the stack as it was', () => {
    expect(touched('pushd src; pushd maybe; popd; touch y')).toEqual([`${SRC}/y`, `${WORKTREE}/y`]);
    expect(touched('pushd src; pushd nosuch; popd; touch y', complete)).toEqual([`${WORKTREE}/y`]);
    expect(touched('pushd maybe && touch y')).toEqual([`${WORKTREE}/maybe/y`]);
    expect(touched('pushd src; popd; touch y')).toEqual([`${WORKTREE}/y`]);
  });
});

describe('a host that reads no directories (lint without --read-disk)', () => {
  it('takes every cd to succeed, as a script is analyzed for a disk it does not read', () => {
    expect(touched('cd maybe; touch x', { cdTakenToSucceed: true })).toEqual([`${WORKTREE}/maybe/x`]);
    expect(touched('cd maybe || touch x', { cdTakenToSucceed: true })).toEqual([`${WORKTREE}/x`]);
  });
});
