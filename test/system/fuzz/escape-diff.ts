/**
 * Differential soundness hunt: the analyzer's decision against what the command really does.
 *
 * A grammar (fast-check arbitraries) composes escape mechanisms (cd/pushd/subshells/functions/
 * loops, variables and their expansions, wrappers, redirections, git routes) with writers whose
 * target is anchored at the main checkout, a sibling, HOME or a scratch dir. Every command the
 * analyzer alone ALLOWS on the standard scenario (analyzeWith + evaluate, as the corpus tests do;
 * no enforcement layer) is run for real by the execution oracle (test/tooling/oracle). An allowed
 * command that changed something outside the worktree (files, the main checkout's git state,
 * shared refs/config) is a soundness finding. No vitest here: escape-diff.mjs bundles this file
 * for long runs, escape-diff.test.ts runs a small fixed-seed smoke run.
 */
import fc from 'fast-check';
import type { BashParser } from '../../../src/engine/parse/index.js';
import { runScenario } from '../../helpers/scenario.js';
import { runOracle, type OracleResult } from '../../tooling/oracle/oracle.js';

// ------------------------------------------------------------------ grammar

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const dq = (s: string): string => `"${s.replace(/(["\\`])/g, '\\$1')}"`;

/** Directories a target is anchored at, as text bash expands (from the worktree b1). */
const OUTSIDE_DIRS = [
  '../..',
  '/home/dev/repo',
  '~/repo',
  '$HOME/repo',
  '${HOME}/repo',
  '../b2',
  '/home/dev/other',
  '/home/dev',
  '~',
  '"$(git rev-parse --git-common-dir)/.."',
  '$(git rev-parse --show-toplevel)/../..',
  '$(cd ../.. && pwd)',
  '`dirname $(git rev-parse --git-common-dir)`',
  '/home/dev/rep?',
  '/home/dev/r*o',
  '/home/dev/[r]epo',
  '/home/dev/{repo,}',
  '/home/dev/{r,x}epo',
  '$PWD/../..',
  '${PWD%/.builders/b1}',
  '${PWD%/*/*}',
  '${PWD%%/.builders*}',
  '$(dirname $(dirname $PWD))',
  '.././..',
  '../../.builders/b2',
  '$\'/home/dev/repo\'',
  '"/home/dev/"repo',
  '/home/dev/./repo',
  '//home//dev//repo',
  '../../../repo',
  '~+/../..',
];
const INSIDE_DIRS = ['.', 'src', '$PWD', '~+', '/tmp', '../b1', '${PWD}'];
const DIRS = [...OUTSIDE_DIRS, ...INSIDE_DIRS];

/** A path under a directory: a new name, or a tracked file every checkout holds. */
const NEW = 'escdiff';
const EXISTING = 'README.md';

type Writer = (dir: string) => string;

/** Writers: given a directory word, a command that writes under it. */
const WRITERS: Array<[string, Writer]> = [
  ['touch', (d) => `touch ${d}/${NEW}`],
  ['>', (d) => `echo x > ${d}/${NEW}`],
  ['>>', (d) => `echo x >> ${d}/${EXISTING}`],
  ['&>', (d) => `echo x &> ${d}/${NEW}`],
  ['>|', (d) => `echo x >| ${d}/${NEW}`],
  ['<>', (d) => `: <> ${d}/${NEW}`],
  ['2>', (d) => `ls /nonexistent 2> ${d}/${NEW}`],
  ['fd-dup', (d) => `exec 3> ${d}/${NEW}; echo x >&3`],
  ['exec>', (d) => `exec > ${d}/${NEW}; echo x`],
  ['group>', (d) => `{ echo x; } > ${d}/${NEW}`],
  ['sub>', (d) => `(echo x) > ${d}/${NEW}`],
  ['here-string', (d) => `cat > ${d}/${NEW} <<< x`],
  ['tee', (d) => `echo x | tee ${d}/${NEW} >/dev/null`],
  ['tee-a', (d) => `echo x | tee -a ${d}/${EXISTING} >/dev/null`],
  ['cp', (d) => `cp README.md ${d}/${NEW}`],
  ['cp-t', (d) => `cp -t ${d} src/app.sh`],
  ['mv', (d) => `mv README.md ${d}/${NEW}`],
  ['sed-i', (d) => `sed -i s/a/b/ ${d}/${EXISTING}`],
  ['ln-s', (d) => `ln -s x ${d}/${NEW}`],
  ['ln', (d) => `ln README.md ${d}/${NEW}`],
  ['mkdir', (d) => `mkdir ${d}/${NEW}`],
  ['mkdir-p', (d) => `mkdir -p ${d}/${NEW}/d`],
  ['install', (d) => `install -D /dev/null ${d}/${NEW}`],
  ['dd', (d) => `dd if=/dev/null of=${d}/${NEW} status=none`],
  ['truncate', (d) => `truncate -s 0 ${d}/${EXISTING}`],
  ['rm', (d) => `rm -f ${d}/${EXISTING}`],
  ['rm-r', (d) => `rm -rf ${d}/src`],
  ['chmod', (d) => `chmod 600 ${d}/${EXISTING}`],
  ['sort-o', (d) => `sort -o ${d}/${NEW} README.md`],
  ['printf>', (d) => `printf %s x > ${d}/${NEW}`],
  ['tar', (d) => `tar -cf ${d}/${NEW} README.md`],
  ['perl-i', (d) => `perl -pi -e s/a/b/ ${d}/${EXISTING}`],
  ['git-C-branch', (d) => `git -C ${d} branch escdiff`],
  ['git-C-commit', (d) => `git -C ${d} commit -q --allow-empty -m x`],
  ['git-C-tag', (d) => `git -C ${d} tag escdiff`],
  ['git-C-config', (d) => `git -C ${d} config escdiff.k v`],
  ['git-C-checkout', (d) => `git -C ${d} checkout -q -b escdiff`],
  ['git-C-add', (d) => `echo x >> ${d}/${EXISTING}; git -C ${d} add ${EXISTING}`],
  ['git-git-dir', (d) => `git --git-dir=${d}/.git branch escdiff`],
  ['GIT_DIR=', (d) => `GIT_DIR=${d}/.git git branch escdiff`],
  ['GIT_WORK_TREE=', (d) => `GIT_WORK_TREE=${d} git checkout -- ${EXISTING}`],
  ['git-work-tree', (d) => `git --work-tree=${d} reset -q --hard`],
  ['git-update-ref', (d) => `git -C ${d} update-ref refs/heads/escdiff HEAD`],
  ['git-stash', (d) => `echo x >> ${d}/${EXISTING}; git -C ${d} stash -q`],
];

/** Writers for the cwd itself (after navigation). */
const HERE = '.';

/** Navigation forms: `nav(D)` moves the shell (or not: the benign forms return) to D. */
const NAVS: Array<[string, (d: string) => string]> = [
  ['cd', (d) => `cd ${d};`],
  ['cd&&', (d) => `cd ${d} &&`],
  ['cd||exit', (d) => `cd ${d} || exit 1;`],
  ['pushd', (d) => `pushd ${d} >/dev/null;`],
  ['builtin-cd', (d) => `builtin cd ${d};`],
  ['command-cd', (d) => `command cd ${d};`],
  ['eval-cd', (d) => `eval ${sq(`cd ${d}`)};`],
  ['eval-cd-dq', (d) => `eval "cd ${d}";`],
  ['func-cd', (d) => `go(){ cd ${d}; }; go;`],
  ['func-kw', (d) => `function go { cd ${d}; }; go;`],
  ['for-cd', (d) => `for x in ${d}; do cd "$x"; done;`],
  ['if-cd', (d) => `if true; then cd ${d}; fi;`],
  ['while-cd', (d) => `while :; do cd ${d}; break; done;`],
  ['case-cd', (d) => `case a in a) cd ${d};; esac;`],
  ['group-cd', (d) => `{ cd ${d}; };`],
  ['cd-tmp-cd', (d) => `cd /tmp; cd ${d};`],
  ['cdpath', (d) => `CDPATH=${d}/.. cd repo >/dev/null;`],
  ['cdpath-export', (d) => `export CDPATH=${d}; cd src >/dev/null;`],
  ['cd-P', (d) => `cd -P ${d};`],
  ['cd-L', (d) => `cd -L ${d};`],
  ['cd-oldpwd', (d) => `cd ${d}; cd /tmp; cd - >/dev/null;`],
  ['cd-twice-dash', (d) => `cd ${d}; cd - >/dev/null; cd - >/dev/null;`],
  ['pushd-popd-pushd', (d) => `pushd ${d} >/dev/null; pushd /tmp >/dev/null; popd >/dev/null;`],
  ['pushd-swap', (d) => `pushd ${d} >/dev/null; pushd >/dev/null; pushd >/dev/null;`],
  ['cd-var-OLDPWD', (d) => `cd ${d}; cd /tmp; cd "$OLDPWD";`],
  ['source-cd', (d) => `source <(echo ${sq(`cd ${d}`)});`],
  ['dot-cd', (d) => `. /dev/stdin <<< ${sq(`cd ${d}`)};`],
  ['alias-cd', (d) => `shopt -s expand_aliases; alias go=${sq(`cd ${d}`)}\ngo;`],
  ['trap-cd', (d) => `trap ${sq(`cd ${d}`)} RETURN; f(){ :; }; f;`],
  ['PROMPT', (d) => `PWD=${d};`],
  ['set-e-cd', (d) => `set -e; cd ${d};`],
  ['until-cd', (d) => `until cd ${d}; do :; done;`],
  ['select-cd', (d) => `select x in ${d}; do cd "$x"; break; done <<< 1;`],
  ['for-c-cd', (d) => `for ((i=0;i<1;i++)); do cd ${d}; done;`],
  ['not-cd', (d) => `! cd ${d};`],
  ['time-cd', (d) => `time cd ${d};`],
  ['cd-2>', (d) => `cd ${d} 2>/dev/null;`],
  // Benign: these do not move the shell that runs the writer.
  ['sub-cd', (d) => `(cd ${d});`],
  ['pipe-cd', (d) => `cd ${d} | true;`],
  ['bg-cd', (d) => `cd ${d} & wait;`],
  ['cmdsub-cd', (d) => `x=$(cd ${d});`],
  ['cd-back', (d) => `cd ${d}; cd - >/dev/null;`],
  ['pushd-popd', (d) => `pushd ${d} >/dev/null; popd >/dev/null;`],
  ['sh-cd', (d) => `sh -c ${sq(`cd ${d}`)};`],
  ['env-cd', (d) => `env cd ${d} 2>/dev/null;`],
  ['lastpipe', (d) => `shopt -s lastpipe; echo ${d} | read x; cd "$x" 2>/dev/null;`],
];

/** Variable routes: `[setup, use]`; the use is the directory word. */
const VARS: Array<[string, (d: string) => [string, string]]> = [
  ['assign', (d) => [`v=${d};`, '$v']],
  ['assign-q', (d) => [`v=${d};`, '"$v"']],
  ['assign&&', (d) => [`v=${d} &&`, '${v}']],
  ['declare', (d) => [`declare v=${d};`, '$v']],
  ['export', (d) => [`export v=${d};`, '$v']],
  ['readonly', (d) => [`readonly v=${d};`, '$v']],
  ['local', (d) => [`f(){ local v=${d}; W; }; f;`, '$v']],
  ['printf-v', (d) => [`printf -v v %s ${d};`, '$v']],
  ['read', (d) => [`read -r v <<< ${d};`, '$v']],
  ['read-ifs', (d) => [`IFS=: read -r _ v <<< "x:"${d};`, '$v']],
  ['default=', (d) => [`: \${v:=${d}};`, '$v']],
  ['default-', (d) => ['', `\${v:-${d}}`]],
  ['default-nocolon', (d) => ['', `\${v-${d}}`]],
  ['alt+', (d) => ['v=1;', `\${v:+${d}}`]],
  ['unset-default', (d) => [`v=/tmp; unset v;`, `\${v:-${d}}`]],
  ['unset-stale', (d) => [`v=${d}; unset w;`, '$v']],
  ['array', (d) => [`a=(x ${d});`, '${a[1]}']],
  ['array-neg', (d) => [`a=(x ${d});`, '${a[-1]}']],
  ['array-all', (d) => [`a=(${d});`, '${a[@]}']],
  ['array-append', (d) => [`a=(x); a+=(${d});`, '${a[1]}']],
  ['assoc', (d) => [`declare -A m=([k]=${d});`, '${m[k]}']],
  ['nameref', (d) => [`v=${d}; declare -n r=v;`, '$r']],
  ['nameref-late', (d) => [`declare -n r=v; v=${d};`, '$r']],
  ['indirect', (d) => [`v=${d}; n=v;`, '${!n}']],
  ['cmdsub', (d) => [`v=$(echo ${d});`, '$v']],
  ['backtick', (d) => [`v=\`echo ${d}\`;`, '$v']],
  ['set--', (d) => [`set -- ${d};`, '$1']],
  ['set--@', (d) => [`set -- ${d};`, '"$@"']],
  ['ifs-split', (d) => [`IFS=:; s=x:${d};`, '${s#x:}']],
  ['ifs-set', (d) => [`IFS=:; s=x:${d}; set -- $s;`, '$2']],
  ['mapfile', (d) => [`mapfile -t a <<< ${d};`, '${a[0]}']],
  ['append', (d) => [`v=/home/dev; v+=/repo;`, '$v']],
  ['suffix', (d) => [`v=${d}X;`, '${v%X}']],
  ['replace', (d) => [`v=${d}X;`, '${v/X/}']],
  ['substr', (d) => [`v=${d}XYZ;`, '${v:0:-3}']],
  ['lower', (d) => [`v=${d};`, '${v,,}']],
  ['upper-lower', () => ['v=/HOME/DEV/REPO;', '${v,,}']],
  ['concat', () => ['a=/home; b=dev/repo;', '$a/$b']],
  ['let-index', (d) => [`a=(x ${d}); let i=0+1;`, '${a[i]}']],
  ['env-prefix', (d) => [`v=${d} true;`, '${v:-.}']],
  ['func-global', (d) => [`f(){ v=${d}; }; f;`, '$v']],
  ['func-local-leak', (d) => [`v=${d}; f(){ local v=.; }; f;`, '$v']],
  ['sub-assign', (d) => [`v=.; (v=${d});`, '$v']],
  ['pipe-assign', (d) => [`v=.; echo | v=${d};`, '$v']],
  ['OLDPWD', (d) => [`cd ${d} && cd - >/dev/null;`, '$OLDPWD']],
  ['tilde-minus', (d) => [`cd ${d} && cd - >/dev/null;`, '~-']],
  ['dirstack', (d) => [`pushd ${d} >/dev/null; popd >/dev/null; pushd ${d} >/dev/null; pushd -n . >/dev/null; popd >/dev/null;`, '.']],
  ['getopts', (d) => [`set -- -a ${d}; getopts a: o;`, '$OPTARG']],
  ['declare-p', (d) => [`v=${d}; eval "$(declare -p v | sed s/v=/w=/)";`, '$w']],
  ['case-var', (d) => [`case x in x) v=${d};; esac;`, '$v']],
  ['while-read', (d) => [`while read -r v; do break; done <<< ${d};`, '$v']],
  ['for-var', (d) => [`for v in ${d}; do :; done;`, '$v']],
  ['arith-idx', (d) => [`a=(x ${d}); i=1;`, '${a[$i]}']],
  ['ifs-word', (d) => [`IFS=/; v="home dev repo"; IFS=' ';`, '/${v// //}']],
];

/** Wrappers: `wrap(cmd)` runs cmd through a launcher. */
const WRAPS: Array<[string, (c: string) => string]> = [
  ['none', (c) => c],
  ['env', (c) => `env ${c}`],
  ['command', (c) => `command ${c}`],
  ['nice', (c) => `nice ${c}`],
  ['timeout', (c) => `timeout 5 ${c}`],
  ['nohup', (c) => `nohup ${c} 2>/dev/null`],
  ['stdbuf', (c) => `stdbuf -o0 ${c}`],
  ['setsid', (c) => `setsid -w ${c}`],
  ['exec', (c) => `exec ${c}`],
  ['time', (c) => `time ${c}`],
  ['not', (c) => `! ${c}`],
  ['sh-c', (c) => `sh -c ${sq(c)}`],
  ['bash-c', (c) => `bash -c ${sq(c)}`],
  ['bash-c-dq', (c) => `bash -c ${dq(c)}`],
  ['eval', (c) => `eval ${sq(c)}`],
  ['eval-dq', (c) => `eval ${dq(c)}`],
  ['source', (c) => `source <(echo ${sq(c)})`],
  ['dot-stdin', (c) => `. /dev/stdin <<< ${sq(c)}`],
  ['bash-stdin', (c) => `bash <<< ${sq(c)}`],
  ['bash-s', (c) => `echo ${sq(c)} | bash -s`],
  ['xargs-sh', (c) => `echo | xargs -I{} sh -c ${sq(c)}`],
  ['find-exec', (c) => `find . -maxdepth 0 -exec sh -c ${sq(c)} \\;`],
  ['func', (c) => `w(){ ${c}; }; w`],
  ['sub', (c) => `(${c})`],
  ['group', (c) => `{ ${c}; }`],
  ['if', (c) => `if true; then ${c}; fi`],
  ['trap-exit', (c) => `trap ${sq(c)} EXIT`],
  ['cmdsub', (c) => `: "$(${c})"`],
  ['procsub', (c) => `cat <(${c}) >/dev/null`],
  ['coproc', (c) => `coproc { ${c}; }; wait`],
  ['bg', (c) => `${c} & wait`],
  ['flock', (c) => `flock /tmp/l sh -c ${sq(c)}`],
  ['sudo', (c) => `sudo sh -c ${sq(c)}`],
  ['script-file', (c) => `printf '%s\\n' ${sq(c)} > /tmp/s.sh; bash /tmp/s.sh`],
  ['heredoc-bash', (c) => `bash <<'EOF'\n${c}\nEOF`],
];

/** xargs / find as the route of the path itself. */
const PATH_ROUTES: Array<[string, (d: string) => string]> = [
  ['xargs-touch', (d) => `echo ${d}/${NEW} | xargs touch`],
  ['xargs-I', (d) => `echo ${d} | xargs -I{} touch {}/${NEW}`],
  ['find-exec-touch', (d) => `find ${d} -maxdepth 0 -exec touch {}/${NEW} \\;`],
  ['find-delete', (d) => `find ${d} -maxdepth 1 -name ${EXISTING} -delete`],
  ['find-execdir', (d) => `find ${d} -maxdepth 1 -name ${EXISTING} -execdir rm {} +`],
  ['xargs-rm', (d) => `ls -d ${d}/${EXISTING} | xargs rm`],
  ['xargs-0', (d) => `printf '%s\\0' ${d}/${NEW} | xargs -0 touch`],
  ['parallel-ish', (d) => `for f in ${d}/${NEW}; do touch "$f" & done; wait`],
  ['glob-loop', (d) => `for f in ${d}/*.md; do echo x >> "$f"; done`],
  ['cp-r-dot', (d) => `cp -r . ${d}/${NEW}`],
  ['rsync-like', (d) => `tar -cf - README.md | tar -xf - -C ${d}`],
  ['unzip-like', (d) => `tar -cf /tmp/a.tar README.md && tar -xf /tmp/a.tar -C ${d}`],
  ['git-archive', (d) => `git archive HEAD | tar -x -C ${d}`],
  ['ln-then-write', (d) => `ln -s ${d} lnk; touch lnk/${NEW}`],
  ['ln-sf-then-write', (d) => `ln -sfn ${d} lnk && echo x > lnk/${NEW}`],
  ['mv-then-write', (d) => `ln -s ${d} a; mv a b; touch b/${NEW}`],
  ['cp-P-then-write', (d) => `ln -s ${d} a; cp -P a b; touch b/${NEW}`],
  ['script-then-run', (d) => `echo ${sq(`touch ${d}/${NEW}`)} > s.sh; bash s.sh`],
  ['chmod-then-run', (d) => `printf '#!/bin/sh\\ntouch %s\\n' ${d}/${NEW} > s.sh; chmod +x s.sh; ./s.sh`],
  ['make-like', (d) => `printf 'all:\\n\\ttouch %s\\n' ${d}/${NEW} > Makefile; make -s`],
  ['git-hook', (d) => `git config core.hooksPath ${d}`],
];

const pick = <T>(xs: ReadonlyArray<[string, T]>) => fc.constantFrom(...xs);

export interface Generated {
  cmd: string;
  /** The grammar route that built it (for grouping findings). */
  shape: string;
}

const dirArb = fc.constantFrom(...DIRS);
const outDirArb = fc.constantFrom(...OUTSIDE_DIRS);
const anyDir = fc.oneof({ weight: 3, arbitrary: outDirArb }, { weight: 1, arbitrary: dirArb });
const writerArb = pick(WRITERS);

const direct = fc.tuple(anyDir, writerArb, pick(WRAPS)).map(([d, [wn, w], [rn, r]]): Generated => ({ cmd: r(w(d)), shape: `direct/${wn}/${rn}` }));
const nav = fc
  .tuple(anyDir, pick(NAVS), writerArb, pick(WRAPS))
  .map(([d, [nn, n], [wn, w], [rn, r]]): Generated => ({ cmd: `${n(d)} ${r(w(HERE))}`.replace(/;\s*$/, ''), shape: `nav/${nn}/${wn}/${rn}` }));
const variable = fc.tuple(anyDir, pick(VARS), writerArb, pick(WRAPS)).map(([d, [vn, v], [wn, w], [rn, r]]): Generated => {
  const [setup, use] = v(d);
  const write = r(w(use));
  // `local` needs the writer inside the function that declares it.
  const cmd = setup.includes(' W;') ? setup.replace(' W;', ` ${write};`) : `${setup} ${write}`;
  return { cmd: cmd.trim(), shape: `var/${vn}/${wn}/${rn}` };
});
const route = fc.tuple(anyDir, pick(PATH_ROUTES), pick(WRAPS)).map(([d, [pn, p], [rn, r]]): Generated => ({ cmd: r(p(d)), shape: `route/${pn}/${rn}` }));
/** Two mechanisms stacked: navigation then a variable route, relative to the new cwd. */
const stacked = fc
  .tuple(fc.constantFrom('..', '../..', '/home/dev', 'src', '/tmp'), pick(NAVS), fc.constantFrom('..', '.', 'repo', '../repo', '$OLDPWD', '~-', '-'), pick(VARS), writerArb)
  .map(([d1, [nn, n], d2, [vn, v], [wn, w]]): Generated => {
    const [setup, use] = v(d2);
    const write = w(use);
    const body = setup.includes(' W;') ? setup.replace(' W;', ` ${write};`) : `${setup} ${write}`;
    return { cmd: `${n(d1)} ${body}`.replace(/\s+/g, ' ').trim(), shape: `stack/${nn}/${vn}/${wn}` };
  });

export const commandArb: fc.Arbitrary<Generated> = fc.oneof(
  { weight: 2, arbitrary: direct },
  { weight: 3, arbitrary: nav },
  { weight: 3, arbitrary: variable },
  { weight: 2, arbitrary: route },
  { weight: 2, arbitrary: stacked },
);

// ------------------------------------------------------------------ the differential run

export interface EscapeFinding {
  cmd: string;
  shape: string;
  decision: 'allow';
  changedOutside: string[];
  gitMain: string[];
  gitShared: string[];
  exitCode: number | null;
  stderr: string;
}

export interface DiffStats {
  seed: number;
  generated: number;
  unique: number;
  decisions: Record<string, number>;
  analysisErrors: number;
  oracleRun: number;
  oracleSkipped: number;
  oracleErrors: number;
  /** Allowed commands whose only change outside was the stash ref (git stash in the worktree). */
  ownStash: number;
  findings: EscapeFinding[];
  ms: number;
}

/** What escaped, as lines: files changed outside, the main checkout's git state, shared git state. */
export function escapesOf(r: OracleResult): string[] {
  return [...r.changedOutside.map((p) => `changed ${p}`), ...r.gitChanges.main.map((g) => `main: ${g}`), ...r.gitChanges.shared.map((g) => `shared: ${g}`)];
}

export interface DiffOptions {
  seed: number;
  /** Stop generating after this many ms (checked between batches). */
  maxMs?: number;
  /** Stop after this many generated commands. */
  maxCommands?: number;
  batch?: number;
  parser: BashParser;
  concurrency?: number;
  onBatch?: (s: DiffStats) => void;
}

export async function escapeDiff(opts: DiffOptions): Promise<DiffStats> {
  const started = Date.now();
  const batch = opts.batch ?? 200;
  const stats: DiffStats = { seed: opts.seed, generated: 0, unique: 0, decisions: {}, analysisErrors: 0, oracleRun: 0, oracleSkipped: 0, oracleErrors: 0, ownStash: 0, findings: [], ms: 0 };
  const seen = new Set<string>();
  let round = 0;
  while (true) {
    if (opts.maxMs !== undefined && Date.now() - started >= opts.maxMs) break;
    if (opts.maxCommands !== undefined && stats.generated >= opts.maxCommands) break;
    const n = Math.min(batch, (opts.maxCommands ?? Infinity) - stats.generated);
    const sample = fc.sample(commandArb, { seed: opts.seed + round * 7919, numRuns: n });
    round++;
    stats.generated += sample.length;
    const allowed: Generated[] = [];
    for (const g of sample) {
      if (seen.has(g.cmd)) continue;
      seen.add(g.cmd);
      stats.unique++;
      let decision: string;
      try {
        decision = runScenario(opts.parser, g.cmd).verdict.decision;
      } catch {
        stats.analysisErrors++;
        continue;
      }
      stats.decisions[decision] = (stats.decisions[decision] ?? 0) + 1;
      if (decision === 'allow') allowed.push(g);
    }
    if (allowed.length > 0) {
      const results = await runOracle(
        allowed.map((g, i) => ({ id: `c${i}`, cmd: g.cmd })),
        { timeoutMs: 5000, ...(opts.concurrency ? { concurrency: opts.concurrency } : {}) },
      );
      results.forEach((r, i) => {
        if (r.error) return void stats.oracleErrors++;
        if (r.skipped) return void stats.oracleSkipped++;
        stats.oracleRun++;
        const escaped = escapesOf(r);
        if (escaped.length === 0) return;
        // The stash is the worktree's own git bookkeeping (test/tooling/oracle/README.md), though
        // gitChanges lists the ref among the shared ones: counted apart, not a finding.
        if (escaped.every((e) => /^shared: ref refs\/stash /.test(e))) return void stats.ownStash++;
        const g = allowed[i]!;
        stats.findings.push({
          cmd: g.cmd,
          shape: g.shape,
          decision: 'allow',
          changedOutside: r.changedOutside,
          gitMain: r.gitChanges.main,
          gitShared: r.gitChanges.shared,
          exitCode: r.exitCode,
          stderr: r.stderr.slice(0, 400),
        });
      });
    }
    stats.ms = Date.now() - started;
    opts.onBatch?.(stats);
  }
  stats.ms = Date.now() - started;
  return stats;
}
