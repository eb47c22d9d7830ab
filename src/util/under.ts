/**
 * `parts` (clean relative names) under the normalized absolute directory `dir`, by concatenation.
 * For the hook's start-up path instead of path.join: Node's normalisation loop, called a few dozen
 * times in a fresh process, is hot enough for V8 to optimise it (a TurboFan/Maglev job: ~2.5-5 MiB
 * of peak RSS on Node 22/24, bench/README.md).
 */
export function under(dir: string, ...parts: string[]): string {
  return (dir === '/' ? '' : dir) + '/' + parts.join('/');
}
