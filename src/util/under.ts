/**
 * `parts` (clean relative names) under the normalized absolute directory `dir`, by concatenation.
 * For the hook's start-up path instead of path.join: Node's normalisation loop, called a few dozen
 * times in a fresh process, is hot enough for V8 to optimise it (a TurboFan/Maglev job: ~2.5-5 MiB
 * of peak RSS on Node 22/24, docs/history/performance.md).
 */
export function under(dir: string, ...parts: string[]): string {
  return (dir === '/' ? '' : dir) + '/' + parts.join('/');
}

/** path.resolve(base, p) for an absolute `base` on POSIX, without Node's normalisation loop (see above). */
export function resolveFrom(base: string, p: string): string {
  const out: string[] = [];
  for (const part of (p.startsWith('/') ? p : base + '/' + p).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

/**
 * path.resolve(...parts) on POSIX, without Node's normalisation loop (see above): the parts from
 * the last absolute one on, against the process's cwd when none is absolute; empty parts ignored.
 */
export function resolvePath(...parts: string[]): string {
  let p = '';
  for (let i = parts.length - 1; i >= 0 && !p.startsWith('/'); i--) {
    const part = parts[i]!;
    if (part !== '') p = p === '' ? part : part + '/' + p;
  }
  return resolveFrom(p.startsWith('/') ? '/' : process.cwd(), p);
}

/** path.dirname of a normalized absolute path (no trailing slash), by its last slash. */
export function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** path.basename of a normalized absolute path (no trailing slash), by its last slash. */
export function baseOf(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
