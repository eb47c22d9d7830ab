/**
 * When a listing command prints only names under its cwd (`ls`, `ls src`, `git ls-files`), which is
 * what a pipeline hands to `xargs rm`: every operand is a plain relative path (no `..`, no `/` at
 * the start, nothing expanded). `ls /x/f`, `ls -d ../..`, `ls "$D"` print the operand as given,
 * which may lie anywhere.
 */
export function printsUnderCwd(args: string[]): boolean {
  return args.every((a) => {
    if (/[$`~]/.test(a)) return false;
    const plain = a.replace(/["'\\]/g, '');
    if (plain.startsWith('-')) return true;
    return !plain.startsWith('/') && !plain.split('/').includes('..');
  });
}

export function cwdPrefix(cwd: string): string {
  return cwd.replace(/\/$/, '') + '/';
}
