/**
 * POSIX shell quoting for words bashguard writes into commands (`bashguard env --format shell`,
 * the `sandbox` decision's wrapped command): a word that needs quoting is put in single quotes,
 * and each single quote inside becomes '\'' (close, escaped quote, reopen). Inside single quotes
 * the shell interprets nothing, so `$`, backquotes, `\`, `!`, newlines and double quotes pass
 * through byte for byte. NUL cannot be passed in an argument at all and is refused.
 */
export function shellQuote(word: string): string {
  if (word.includes('\0')) throw new Error('a NUL byte cannot be passed to a command');
  if (word !== '' && /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
