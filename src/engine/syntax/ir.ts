/**
 * The syntax IR: a small typed view of a bash program, built from the parser-neutral tree.
 * The interpreter walks only this; tree-sitter node kinds stop at src/engine/syntax/ (build.ts and
 * the builders beside it).
 */

export interface Range {
  /** UTF-16 offsets into the source. */
  start: number;
  end: number;
  /** 1-based line and column, as editors and ShellCheck print them. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** How a literal piece of a word was spelled. Only `none` is subject to tilde, brace and glob expansion. */
export type Quoting = 'none' | 'escape' | 'single' | 'double' | 'ansi-c' | 'locale' | 'heredoc';

export type WordPart =
  | { kind: 'text'; value: string; quoting: Quoting }
  /** `~` or `~user` at the start of an unquoted word. */
  | { kind: 'tilde'; user: string }
  /**
   * `$X`, `${X}`, `${X:-word}`, `$1`, `$@` ... `op` is the operator text, `arg` its word. `${a[k]}`:
   * `name` is `a[k]` as written and `subscript` the word `k`, which bash expands (its command
   * substitutions run) before it looks the element up.
   */
  | { kind: 'param'; name: string; op: string | null; arg: Word | null; quoted: boolean; text: string; subscript?: Word }
  | { kind: 'command-sub'; body: Command; quoted: boolean; text: string }
  | { kind: 'process-sub'; body: Command; direction: '<' | '>'; text: string }
  | { kind: 'arith'; text: string; quoted: boolean; subs: Command[] }
  /** Something the builder could not read (an ERROR node, an array literal in a word ...). */
  | { kind: 'unknown'; text: string; reason: string };

export interface Word {
  parts: WordPart[];
  /** The source text of the whole word. */
  text: string;
  range: Range;
}

export interface Assignment {
  name: string;
  /** `+=` appends. */
  append: boolean;
  /** null for `X=` and for array values, which are kept as `unknownValue`. */
  value: Word | null;
  unknownValue: boolean;
  /** `a=(x y)`, `m=([k]=v)`: the elements as written (a `[k]=` prefix stays in the word). */
  elements?: Word[];
  /** `a[k]=v` as written: the word `k` (the name keeps the text `a[k]`), which bash expands when it assigns. */
  subscript?: Word;
  range: Range;
}

export type RedirectOp =
  | '>' | '>>' | '>|' | '&>' | '&>>' | '<' | '<>' | '>&' | '<&' | '>&-' | '<&-' | '<<' | '<<-' | '<<<';

export interface Heredoc {
  delimiter: string;
  /** A quoted delimiter (`<<'EOF'`) means the body is taken literally. */
  quoted: boolean;
  /** The body as a word (expansions included when unquoted). */
  body: Word;
}

export interface Redirect {
  op: RedirectOp;
  fd: number | null;
  /** The file or fd word; null for `>&-` and heredocs. */
  target: Word | null;
  heredoc: Heredoc | null;
  range: Range;
}

interface Base {
  range: Range;
}

export interface SimpleCommand extends Base {
  kind: 'simple';
  /** Prefix assignments (`X=1 cmd` applies to cmd only; alone they set shell variables). */
  assigns: Assignment[];
  /** The command name and its arguments, unexpanded. Empty for a bare assignment. */
  words: Word[];
  /** For declaration builtins (`export A=1`, `local b=2`): the assignments among the arguments. */
  declarations: Assignment[];
  redirects: Redirect[];
}

export interface Pipeline extends Base {
  kind: 'pipeline';
  commands: Command[];
  negated: boolean;
}

export interface AndOr extends Base {
  kind: 'and-or';
  op: '&&' | '||';
  left: Command;
  right: Command;
}

export interface Sequence extends Base {
  kind: 'sequence';
  items: { command: Command; background: boolean }[];
}

export interface Subshell extends Base {
  kind: 'subshell';
  body: Command;
  redirects: Redirect[];
}

export interface Group extends Base {
  kind: 'group';
  body: Command;
  redirects: Redirect[];
}

export interface If extends Base {
  kind: 'if';
  branches: { condition: Command; body: Command }[];
  elseBody: Command | null;
  redirects: Redirect[];
}

export interface Case extends Base {
  kind: 'case';
  subject: Word;
  items: { patterns: Word[]; body: Command }[];
  redirects: Redirect[];
}

export interface Loop extends Base {
  kind: 'loop';
  loop: 'for' | 'select' | 'while' | 'until' | 'c-for';
  variable: string | null;
  /** `for x in WORDS`; null means `"$@"` (no `in`), or not a for loop. */
  values: Word[] | null;
  condition: Command | null;
  body: Command;
  redirects: Redirect[];
}

export interface FunctionDef extends Base {
  kind: 'function';
  name: string;
  body: Command;
  redirects: Redirect[];
}

/** `[[ ... ]]` and `(( ... ))`: no writes of their own, but expansions inside still run. */
export interface Test extends Base {
  kind: 'test';
  words: Word[];
  /** `[[ ... ]]`: every operand and operator in order (`-d`, `$x`, `&&` ...), for deciding it; absent for `(( ))`. */
  args?: Word[];
  /** `[ ... ]` (the test builtin, which the grammar parses like `[[`): its words split and glob. */
  single?: boolean;
  /** `(( ))` and a `for ((;;))` header: the expression as written, which bash evaluates. */
  arith?: string;
  redirects: Redirect[];
}

/** A part of the program that could not be analyzed (ERROR node, unknown node kind). */
export interface Unknown extends Base {
  kind: 'unknown';
  reason: string;
  text: string;
}

export type Command =
  | SimpleCommand
  | Pipeline
  | AndOr
  | Sequence
  | Subshell
  | Group
  | If
  | Case
  | Loop
  | FunctionDef
  | Test
  | Unknown;

export interface Script {
  body: Sequence;
  source: string;
  /** Every part that could not be analyzed, in source order (usually also present inline as Unknown;
   * ERROR/MISSING nodes the builder had no place for appear only here). */
  /** `limit`: a limit of the parser layer stopped reading here (no syntax error known). */
  problems: { reason: string; range: Range; text: string; limit?: true }[];
}
