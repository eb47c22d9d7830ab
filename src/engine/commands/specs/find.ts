import { HOLE } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import { joinPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const FIND_VALUE_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-type', '-xtype', '-size', '-user', '-group', '-perm', '-newer', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-maxdepth', '-mindepth', '-links', '-inum', '-samefile', '-wholename', '-iwholename', '-lname', '-ilname', '-uid', '-gid', '-printf', '-fstype', '-used', '-context', '-regextype', '-newerXY', '-D', '-O']);

const find: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const args = inv.args;
    const starts: Field[] = [];
    let i = 0;
    while (i < args.length && /^-[HLP]$/.test(args[i]!.value)) i++;
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v.startsWith('-') || v === '(' || v === '!' || v === ',') break;
      starts.push(args[i]!);
    }
    if (starts.length === 0) starts.push({ value: '.', confidence: 'certain', evidence: [], glob: false });
    const under = (s: Field): Field => ({ ...s, value: s.value.replace(/\/+$/, '') + '/' + HOLE });
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (FIND_VALUE_TESTS.has(v)) {
        i++;
        continue;
      }
      if (v === '-delete') for (const s of starts) interp.write('delete', under(s), inv.st, inv.range, 'find -delete', { subtree: true });
      if (v === '-fprint' || v === '-fprint0' || v === '-fls' || v === '-fprintf') {
        const f = args[i + 1];
        if (f) interp.write('write', f, inv.st, inv.range, `find ${v}`);
        i += v === '-fprintf' ? 2 : 1;
        continue;
      }
      if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
        const inner: Field[] = [];
        let j = i + 1;
        for (; j < args.length; j++) {
          const t = args[j]!.value;
          if (t === ';' || (t === '+' && inner.length > 0 && inner[inner.length - 1]!.value === '{}')) break;
          inner.push(args[j]!);
        }
        i = j;
        if (inner.length === 0) continue;
        for (const s of starts) {
          const dir = v.endsWith('dir');
          const placeholder = dir ? `./${HOLE}` : s.value.replace(/\/+$/, '') + '/' + HOLE;
          const argv = inner.map((f) => (f.value.includes('{}') ? { ...f, value: f.value.split('{}').join(placeholder) } : f));
          const cwd = dir ? interp.resolveCd(inv.st, { ...s, value: s.value.replace(/\/+$/, '') + '/' + HOLE }, inv.range, false) : undefined;
          const known = dir && !s.value.includes(HOLE) ? interp.resolveCd(inv.st, s, inv.range, false) : cwd;
          interp.runWrapped(argv, inv.env, inv.st, inv.range, `find ${v}`, { kind: 'unknown' }, known);
        }
      }
    }
  },
};

export default command({
  names: ['find'],
  build: () => find,
  pathList([first], cwd) {
    if (!first || first.startsWith('-') || /[$`*?]/.test(first)) return null;
    const base = first.startsWith('/') ? first : joinPath(cwd, first);
    return base.replace(/\/$/, '') + '/';
  },
});

export const examples: readonly Example[] = [
  // What find prints is a list of paths below its start: `xargs` hands them on.
  ['find ../b2 -name x | xargs rm', 'deny'],
  ['find /tmp -name x | xargs rm', 'allow'],
  ['find ../.. -name x -delete', 'deny'],
  ['find . -name "*.o" -delete', 'allow'],
  ['find ../.. -name x', 'allow'],
];
