import type { Field } from '../../shell/field.js';
import type { CommandContext, Invocation } from '../context.js';
import { basenameOf } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { inlineCodeWrites } from '../inline-code.js';
import { unknownCommand } from '../unknown.js';
import { type Example, type CommandSpec, command, lookupSpec } from '../spec.js';
import { codeArguments, dirnameOfArg, pythonEnvWrites } from '../kinds.js';

/** `python3 -m MODULE ARGS`: modules that write files, as data. */
const PY_MODULES: Record<string, (args: Field[], inv: Invocation, interp: CommandContext) => void> = {
  venv: (args, inv, interp) => {
    const p = parseArgs(args, { long: ['prompt', 'upgrade-deps'] });
    for (const d of p.operands) interp.write('extract', d, inv.st, inv.range, 'python -m venv', { subtree: true });
  },
  virtualenv: (args, inv, interp) => PY_MODULES.venv!(args, inv, interp),
  'json.tool': (args, inv, interp) => {
    const p = parseArgs(args, { long: ['indent'] });
    const out = p.operands[1];
    if (out && out.value !== '-') interp.write('write', out, inv.st, inv.range, 'python -m json.tool');
  },
  zipfile: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'clet', long: ['create', 'list', 'extract', 'test', 'metadata-encoding'] });
    const created = optionValues(p, '-c', '--create')[0];
    if (created) interp.write('write', created, inv.st, inv.range, 'python -m zipfile -c');
    if (hasOption(p, '-e', '--extract') && p.operands[0]) interp.write('extract', p.operands[0], inv.st, inv.range, 'python -m zipfile -e', { subtree: true });
  },
  tarfile: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'clet', long: ['create', 'list', 'extract', 'test', 'filter'] });
    const created = optionValues(p, '-c', '--create')[0];
    if (created) interp.write('write', created, inv.st, inv.range, 'python -m tarfile -c');
    if (hasOption(p, '-e', '--extract')) interp.write('extract', p.operands[0] ?? { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'python -m tarfile -e', { subtree: true });
  },
  gzip: (args, inv, interp) => {
    for (const f of args) if (!f.value.startsWith('-')) interp.write('write', { ...f, value: args.some((a) => a.value === '-d' || a.value === '--decompress') ? f.value.replace(/\.gz$/, '') : `${f.value}.gz` }, inv.st, inv.range, 'python -m gzip');
  },
  py_compile: (args, inv, interp) => {
    for (const f of args) if (!f.value.startsWith('-')) interp.write('extract', { ...f, value: `${dirnameOfArg(f.value)}/__pycache__` }, inv.st, inv.range, 'python -m py_compile', { subtree: true });
  },
  compileall: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'dxirjeops', long: ['invalidation-mode', 'hardlink-dupes'] });
    for (const d of p.operands) interp.write('extract', d, inv.st, inv.range, 'python -m compileall', { subtree: true });
  },
  'http.server': () => {},
  pydoc: (args, inv, interp) => {
    if (args.some((a) => a.value === '-w')) for (const f of args) if (!f.value.startsWith('-')) interp.write('write', { ...f, value: `./${basenameOf(f.value)}.html` }, inv.st, inv.range, 'pydoc -w');
  },
};

const PY_VALUE = new Set(['-W', '-X', '-Q']);

/** python, python3 ...: `-c CODE`, `-m MODULE`, `- < stdin`, a script file (not analyzed). */
const python: CommandSpec = {
  category: 'code',
  run(inv, interp) {
    const a = inv.args;
    let i = 0;
    let mode: 'c' | 'm' | null = null;
    let attached: string | null = null;
    for (; i < a.length; i++) {
      const v = a[i]!.value;
      if (v === '--') {
        i++;
        break;
      }
      if (!v.startsWith('-') || v === '-') break;
      if (PY_VALUE.has(v)) {
        i++;
        continue;
      }
      const m = /^-[a-zA-Z]*?([cm])(.*)$/.exec(v);
      if (m && !v.startsWith('--')) {
        mode = m[1] as 'c' | 'm';
        attached = m[2] || null;
        break;
      }
    }
    pythonEnvWrites(inv, interp, a.slice(0, i));
    if (mode === 'c') {
      const codeField = attached !== null ? { ...a[i]!, value: attached } : a[i + 1];
      const rest = a.slice(attached !== null ? i + 1 : i + 2);
      if (!codeField) return;
      const sink = inlineCodeWrites(codeField.value, 'python', inv, interp, `inline ${inv.name} code`);
      if (sink) codeArguments(rest, inv, interp);
      return;
    }
    if (mode === 'm') {
      const mod = attached ?? a[i + 1]?.value;
      const rest = a.slice(attached !== null ? i + 1 : i + 2);
      if (!mod) return;
      const known = PY_MODULES[mod];
      if (known) return known(rest, inv, interp);
      const spec = lookupSpec(mod);
      if (spec && spec.category !== 'read') return spec.run({ ...inv, name: mod, shown: `${inv.shown} -m ${mod}`, args: rest }, interp);
      unknownCommand(inv, interp, rest, `${inv.name} -m ${mod}`);
      return;
    }
    const script = a[i];
    if ((!script || script.value === '-') && inv.stdin.kind === 'text' && inv.stdin.known) {
      const sink = inlineCodeWrites(inv.stdin.text, 'python', inv, interp, `${inv.name} code from stdin`);
      if (sink) codeArguments(a.slice(i + 1), inv, interp);
      return;
    }
    // `python3 tool.py ARGS`: the script is read, its arguments may be written (closed world).
    unknownCommand(inv, interp, a.slice(i + 1));
  },
};

export default command({
  names: ['python', 'python3', 'python2', 'pypy', 'pypy3', 'python3.8', 'python3.9', 'python3.10', 'python3.11', 'python3.12', 'python3.13', 'python3.14'],
  build: () => python,
});

export const examples: readonly Example[] = [
  ['python3 -c \'open("/home/dev/repo/x", "w")\'', 'deny'],
  ['python3 -c \'import requests; requests.get("http://localhost:5000/status")\'', 'allow'],
  ['python3 -m venv ../../venv', 'deny'],
  ['python3 -m venv .venv', 'allow'],
  // `-m MODULE` of a command with a spec runs that spec's knowledge (lookupSpec).
  ['python3 -m pip install --target ../../lib requests', 'deny'],
  ['python3 -m pip install -r requirements.txt', 'allow'],
];
