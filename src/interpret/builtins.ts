/**
 * Which bash names are not command-table entries: keywords (syntax: the parser and the IR
 * builder handle them) and builtins whose behaviour belongs to the interpreter because they
 * change how later commands are read or run (aliases, the command hash, traps, shell options).
 * Every other builtin has an entry in src/commands/table.ts; test/closed-world.test.ts checks
 * the three sets cover `bash -c 'compgen -b -k'`.
 */
export const SHELL_KEYWORDS: readonly string[] = ['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function', 'time', '{', '}', '!', '[[', ']]', 'coproc'];

export const INTERPRETER_BUILTINS: readonly string[] = ['alias', 'unalias', 'hash', 'trap', 'shopt'];
