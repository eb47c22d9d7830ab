import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, type ShellHandler, command } from '../spec.js';
import { readVar } from '../kinds.js';

/** Words of a known stdin line, split on IFS whitespace (`read a b`), backslashes processed unless -r. */
function readLine(text: string, delim: string, raw: boolean): { line: string; found: boolean } {
  const i = delim === '' ? text.indexOf('\0') : text.indexOf(delim);
  let line = i >= 0 ? text.slice(0, i) : text;
  const found = i >= 0 || line.length > 0;
  if (!raw) line = line.replace(/\\(.)/g, '$1').replace(/\\$/, '');
  return { line, found };
}

const read: ShellHandler = (inv, sh) => {
  const names: string[] = [];
  let arrayName: string | null = null;
  let delim = '\n';
  let raw = false;
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') {
      names.push(...args.slice(i + 1).map((f) => f.value));
      break;
    }
    if (/^-[A-Za-z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'r') raw = true;
        else if ('adinNptu'.includes(c)) {
          const v = a.slice(j + 1) || args[++i]?.value || '';
          if (c === 'a') arrayName = v;
          if (c === 'd') delim = v.charAt(0);
          // Another descriptor, or a count of characters: not modelled.
          if (c === 'u' || c === 'n' || c === 'N') delim = '\0unknown';
          break;
        }
      }
      continue;
    }
    names.push(a);
  }
  const targets = names.length > 0 || arrayName ? names : ['REPLY'];
  const s = inv.stdin;
  const note = { range: inv.range, note: '' };
  // Words are split on IFS (a prefix `IFS=: read` or the shell's): the default and the empty one
  // are modelled; any other makes what each name gets not known here.
  const ifs = inv.env.get('IFS')?.value ?? inv.st.vars.get('IFS')?.value ?? ' \t\n';
  const ifsKnown = ifs === '' || ifs === ' \t\n';
  if (s.kind !== 'text' || !s.known || delim === '\0unknown' || sh.readsUnknown || !ifsKnown || args.some((f) => f.value.includes(HOLE))) {
    for (const n of [...targets, ...(arrayName ? [arrayName] : [])]) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) sh.setVar(inv.st, n, HOLE, 'possible', [{ ...note, note: `${n} is read from input` }]);
    }
    sh.status = null;
    return true;
  }
  const { line, found } = readLine(s.text, delim, raw);
  const ev = (n: string, v: string) => [{ ...note, note: `${n}=${displayPath(v)} read from known input` }];
  if (ifs === '') {
    // No splitting, nothing trimmed: the first name (or element) takes the line.
    if (arrayName) sh.setArray(inv.st, arrayName, { assoc: false, entries: [['0', line]], partial: false }, 'likely', ev(arrayName, line));
    targets.forEach((n, i) => sh.setVar(inv.st, n, i === 0 ? line : '', 'likely', ev(n, i === 0 ? line : '')));
  } else if (arrayName) {
    const words = line.split(/[ \t\n]+/).filter(Boolean);
    sh.setArray(inv.st, arrayName, { assoc: false, entries: words.map((w, i) => [String(i), w]), partial: false }, 'likely', ev(arrayName, words.join(' ')));
  } else if (targets.length === 1 && targets[0] === 'REPLY' && names.length === 0) {
    sh.setVar(inv.st, 'REPLY', line, 'likely', ev('REPLY', line));
  } else {
    // The last name takes the rest of the line; leading and trailing IFS whitespace go.
    let rest = line.replace(/^[ \t\n]+/, '');
    targets.forEach((n, i) => {
      let v: string;
      if (i === targets.length - 1) v = rest.replace(/[ \t\n]+$/, '');
      else {
        const m = /^([^ \t\n]*)[ \t\n]*/.exec(rest)!;
        v = m[1]!;
        rest = rest.slice(m[0].length);
      }
      sh.setVar(inv.st, n, v, 'likely', ev(n, v));
    });
  }
  sh.status = found;
  return true;
};

const mapfile: ShellHandler = (inv, sh) => {
  let trim = false;
  let delim = '\n';
  let name = 'MAPFILE';
  let unsupported = false;
  let callback: string | null = null;
  const args = inv.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (/^-[A-Za-z]/.test(a)) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 't') trim = true;
        else if ('dnOsuCc'.includes(c)) {
          const v = a.slice(j + 1) || args[++i]?.value || '';
          if (c === 'd') delim = v.charAt(0) || '\0';
          else unsupported = true;
          if (c === 'C') callback = v;
          break;
        }
      }
    } else name = a;
  }
  // `-C CODE`: bash runs CODE (with an index and a line) every `-c` lines read, if it reads that many.
  if (callback !== null) {
    const code = callback;
    if (code.includes(HOLE)) sh.dynamicProblem('mapfile -C runs code not known statically', inv.shown, inv.range);
    else sh.possibly(() => sh.runTrap(`${code} 0 ''`, inv.st, inv.range, 'mapfile -C', false));
  }
  const s = inv.stdin;
  if (s.kind !== 'text' || !s.known || unsupported || sh.readsUnknown || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) sh.setArray(inv.st, name, { assoc: false, entries: [], partial: true }, 'possible', [{ range: inv.range, note: `${name} is read from input` }]);
    return true;
  }
  const pieces: string[] = [];
  let text = s.text;
  while (text.length > 0) {
    const i = text.indexOf(delim);
    const piece = i >= 0 ? text.slice(0, i + 1) : text;
    text = i >= 0 ? text.slice(i + 1) : '';
    pieces.push(trim && piece.endsWith(delim) ? piece.slice(0, -1) : piece);
  }
  sh.setArray(inv.st, name, { assoc: false, entries: pieces.map((p, i) => [String(i), p]), partial: false }, 'likely', [{ range: inv.range, note: `${name} read from known input (${pieces.length} lines)` }]);
  return true;
};

export default command({
  names: ['read', 'mapfile', 'readarray'],
  build: () => readVar,
  shell: (inv, sh) => (inv.name === 'read' ? read(inv, sh) : mapfile(inv, sh)),
});

export const examples: readonly Example[] = [
  ['read -r X; touch "$X"', 'ask'],
  ['read -r X; echo "$X"', 'allow'],
  ["mapfile -C 'touch ../../x #' -c 1 a < f", 'ask'],
  ["mapfile -C 'touch x #' -c 1 a < f", 'allow'],
];
