/**
 * The `printf` builtin's formatting, for the cases that decide paths: `%s`, `%d`, `%b`, `%q`
 * (as the plain value), `%%`, widths, and the format's backslash escapes, with the format reused
 * while arguments remain (as bash does). Unknown text (HOLE) passes through; a conversion this
 * does not model yields HOLE.
 */
import { HOLE } from '../effects/types.js';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b', E: '\x1b', '\\': '\\', '"': '"', "'": "'" };

function unescape(s: string): string {
  return s.replace(/\\(0[0-7]{0,3}|x[0-9a-fA-F]{1,2}|.)/g, (m, e: string) => {
    if (e in ESCAPES) return ESCAPES[e]!;
    if (e.startsWith('0')) return String.fromCharCode(parseInt(e.slice(1) || '0', 8));
    if (e.startsWith('x')) return String.fromCharCode(parseInt(e.slice(1), 16));
    return m;
  });
}

export function formatPrintf(format: string, args: string[]): string {
  let out = '';
  let ai = 0;
  for (let round = 0; round < 64; round++) {
    let consumed = false;
    const re = /%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([a-zA-Z%])|\\(?:0[0-7]{0,3}|x[0-9a-fA-F]{1,2}|.)|[^%\\]+|[%\\]/g;
    for (const m of format.matchAll(re)) {
      const text = m[0];
      if (!text.startsWith('%') || text.length === 1) {
        out += text.startsWith('\\') ? unescape(text) : text;
        continue;
      }
      const conv = m[4]!;
      if (conv === '%') {
        out += '%';
        continue;
      }
      const width = m[2] === '*' ? Number(args[ai++] ?? 0) : Number(m[2] ?? 0);
      const arg = args[ai++];
      consumed = true;
      let v: string;
      switch (conv) {
        case 's':
        case 'q':
          v = arg ?? '';
          break;
        case 'b':
          v = unescape(arg ?? '');
          break;
        case 'd':
        case 'i':
        case 'u':
          v = arg === undefined || arg === '' ? '0' : /^-?\d+$/.test(arg.trim()) ? String(Number(arg.trim())) : HOLE;
          break;
        case 'c':
          v = (arg ?? '').charAt(0);
          break;
        default:
          v = HOLE;
      }
      if (width && !v.includes(HOLE) && v.length < width) {
        const zero = m[1]?.includes('0') && !m[1]?.includes('-') && /^[diu]$/.test(conv);
        v = m[1]?.includes('-') ? v.padEnd(width) : v.padStart(width, zero ? '0' : ' ');
      }
      out += v;
    }
    if (!consumed || ai >= args.length) break;
  }
  return out;
}
