import type { Field } from '../../shell/field.js';
import { basenameOf } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const CC_VALUE = new Set(['-I', '-L', '-l', '-D', '-U', '-x', '-include', '-imacros', '-isystem', '-idirafter', '-iquote', '-iprefix', '-MT', '-MQ', '-Xlinker', '-Xassembler', '-Xpreprocessor', '-T', '-u', '-e', '-z', '-arch', '-target', '-framework', '-ccbin', '-gencode', '-Xcompiler', '-std', '-aux-info', '-wrapper']);

const SOURCE = /\.(?:c|cc|cpp|cxx|c\+\+|C|m|mm|s|S|sx|f|f90|f95|for|cu|go|rs|adb|ads|d)$/;

/** gcc, clang, cc, c++, nvcc, gfortran: `-o FILE`, `-MF FILE`, else a.out / *.o in the cwd. */
const cc: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const a = inv.args;
    let out: Field | null = null;
    const sources: Field[] = [];
    const flags = new Set<string>();
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      if (v === '-o' || v === '-MF') {
        const f = a[++i];
        if (f && v === '-o') out = f;
        else if (f) interp.write('write', f, inv.st, inv.range, `${inv.name} -MF`);
        continue;
      }
      if (v.startsWith('-o') && v.length > 2) {
        out = { ...a[i]!, value: v.slice(2) };
        continue;
      }
      if (CC_VALUE.has(v)) {
        i++;
        continue;
      }
      if (v.startsWith('-')) {
        flags.add(v);
        continue;
      }
      if (SOURCE.test(v)) sources.push(a[i]!);
    }
    if (flags.has('-E') || flags.has('-fsyntax-only') || flags.has('--version') || flags.has('-v') || flags.has('--help') || [...flags].some((f) => f.startsWith('-dump') || f.startsWith('-print-'))) {
      if (out && out.value !== '-') interp.write('write', out, inv.st, inv.range, `${inv.name} -o`);
      return;
    }
    if (out) {
      if (out.value !== '-') interp.write('write', out, inv.st, inv.range, `${inv.name} -o`);
      return;
    }
    if (sources.length === 0) return;
    const cwdFile = (name: string): Field => ({ value: name, confidence: 'likely', evidence: [{ range: inv.range, note: `\`${inv.name}\` writes ${name} in the cwd` }], glob: false });
    if (flags.has('-c') || flags.has('-S')) {
      for (const s of sources) interp.write('write', cwdFile(basenameOf(s.value).replace(/\.[^.]+$/, flags.has('-c') ? '.o' : '.s')), inv.st, inv.range, inv.name);
    } else interp.write('write', cwdFile('a.out'), inv.st, inv.range, inv.name);
  },
};

export default command({
  names: ['cc', 'gcc', 'g++', 'c++', 'clang', 'clang++', 'gfortran', 'nvcc', 'tcc', 'x86_64-linux-gnu-gcc'],
  build: () => cc,
});

export const examples: readonly Example[] = [
  ['gcc -o ../../a x.c', 'deny'],
  ['gcc -o a x.c', 'allow'],
  ['cd ../.. && cc x.c', 'deny'],
];
