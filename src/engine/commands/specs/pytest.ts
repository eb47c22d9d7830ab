import type { WriteOp } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { envOf } from '../env.js';
import { type Example, type CommandSpec, command } from '../spec.js';
import { dirnameOfArg, pythonEnvWrites } from '../kinds.js';

/**
 * pytest: the cache (`.pytest_cache`) goes in the rootdir (--rootdir, or the common ancestor of
 * the paths it is given), bytecode of test modules in `__pycache__` next to them.
 */
const pytest: CommandSpec = {
  category: 'project',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'kmpcorxnW', long: ['rootdir', 'basetemp', 'confcutdir', 'override-ini', 'deselect', 'ignore', 'ignore-glob', 'junitxml', 'junit-xml', 'log-file', 'durations', 'maxfail', 'tb', 'import-mode', 'capture', 'cov', 'cov-report', 'html', 'resultlog', 'report-log', 'log-level', 'cache-dir'] });
    if (hasOption(p, '--version', '-V', '-h', '--help', '--fixtures', '--markers')) return;
    const w = (op: WriteOp, f: Field, what: string, subtree = true) => interp.write(op, f, inv.st, inv.range, what, { subtree });
    for (const f of optionValues(p, '--junitxml', '--junit-xml', '--log-file', '--html', '--resultlog', '--report-log')) w('write', f, `pytest ${f.value}`, false);
    const basetemp = optionValues(p, '--basetemp')[0];
    if (basetemp) w('extract', basetemp, 'pytest --basetemp');
    const paths = p.operands.map((f) => ({ ...f, value: f.value.replace(/::.*$/, '') })).filter((f) => f.value !== '');
    const dirOf = (f: Field): string => (/\.py$/.test(f.value) ? dirnameOfArg(f.value) || '/' : f.value.replace(/\/+$/, '') || '/');
    const rootdir = optionValues(p, '--rootdir')[0] ?? (paths.length > 0 ? { ...paths[0]!, value: commonDir(paths.map(dirOf)) } : { value: '.', confidence: 'certain' as const, evidence: [], glob: false });
    const noCache = optionValues(p, '-p').some((f) => f.value === 'no:cacheprovider');
    const cacheDir = [...optionValues(p, '-o', '--override-ini')].map((f) => /^cache_dir=(.+)$/.exec(f.value)?.[1]).find(Boolean);
    if (!noCache) w('extract', { ...rootdir, value: cacheDir ? (cacheDir.startsWith('/') ? cacheDir : `${rootdir.value}/${cacheDir}`) : `${rootdir.value}/.pytest_cache` }, 'pytest (its cache)');
    if (!envOf(inv, 'PYTHONDONTWRITEBYTECODE')?.value) {
      for (const d of new Set(paths.map(dirOf))) w('extract', { ...paths[0]!, value: `${d}/__pycache__` }, 'pytest (bytecode)');
    }
    pythonEnvWrites(inv, interp, []);
  },
};

function commonDir(dirs: string[]): string {
  const split = dirs.map((d) => d.split('/'));
  const out: string[] = [];
  for (let i = 0; i < split[0]!.length; i++) {
    const part = split[0]![i]!;
    if (split.every((s) => s[i] === part)) out.push(part);
    else break;
  }
  return out.join('/') || (dirs[0]!.startsWith('/') ? '/' : '.');
}

export default command({
  names: ['pytest', 'py.test'],
  build: () => pytest,
});

export const examples: readonly Example[] = [
  ['pytest --junitxml=../../r.xml', 'deny'],
  ['pytest tests/', 'allow'],
];
