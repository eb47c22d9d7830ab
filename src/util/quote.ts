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

/**
 * The start of every enforcement wrapper: the command, once, in the variable its branches `eval`
 * (`eval "$__bg_c"`). A command near the 128 KiB limit of one argument (the client passes the
 * wrapper as one) must not appear in it more than once.
 */
export function commandDefinition(command: string): string {
  return `__bg_c=${shellQuote(command)}; `;
}

/** A wrapper's text after its command definition (see commandDefinition); throws where it does not start with it. */
export function afterDefinition(command: string, wrapper: string): string {
  const def = commandDefinition(command);
  if (!wrapper.startsWith(def)) throw new Error('the wrapper does not start with its command');
  return wrapper.slice(def.length);
}
