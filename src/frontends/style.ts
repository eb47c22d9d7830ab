/** Terminal colours for the front ends' reports (check, explain, lint): plain text when off. */
export interface Style {
  bold(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  green(s: string): string;
  dim(s: string): string;
}

export function style(color: boolean): Style {
  const wrap = (code: string) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { bold: wrap('1'), red: wrap('31'), yellow: wrap('33'), green: wrap('32'), dim: wrap('2') };
}
