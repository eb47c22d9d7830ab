/**
 * The parser layer: one interface over two tree-sitter backends. The native binding is
 * preferred; the pinned WASM grammar is the fallback when the addon cannot load, or when
 * forced with BASHGUARD_PARSER=wasm. Callers get a parser-neutral tree (./tree.ts).
 */
import { copyExported, copyTree, symbolNames, type BackendName, type ExportedTree, type ParseFailureKind, type ParseResult, type TreeCursorLike } from './tree.js';
import { budgetMs, DEFAULT_LIMITS, type ParseLimits } from './limits.js';
import { loadNative, nativeParse } from './native.js';
import { loadWasm, wasmParse } from './wasm.js';
import { recover, type Reparse, type Tree } from './recover.js';
import { isolate } from './isolate.js';
import { findJoinedLines } from './sanity.js';
import { endsInExec, execLines, execTail, firstErrorAt } from './exec-end.js';

export type { SyntaxNode, ParseResult, ParseSuccess, ParseFailure, BackendName, Point } from './tree.js';
export { DEFAULT_LIMITS, type ParseLimits } from './limits.js';
export { useDenseParseTable } from './native.js';

export interface BashParser {
  readonly backend: BackendName;
  /** Why the native backend was not used, when it was not (for `doctor` and `--verbose`). */
  readonly fallbackReason: string | null;
  parse(source: string, limits?: Partial<ParseLimits>): ParseResult;
}

function makeParser(
  backend: BackendName,
  fallbackReason: string | null,
  run: (source: string, timeoutMs: number) => TreeCursorLike | ExportedTree | null,
): BashParser {
  const names = symbolNames();
  /** One tree-sitter parse plus the copy, within the time left before the deadline. */
  const parseOnce = (text: string, deadline: number, limits: ParseLimits): Tree | { kind: ParseFailureKind; message: string } => {
    const timeout = (): string => `parse took longer than ${limits.timeoutMs} ms`;
    let tree: TreeCursorLike | ExportedTree | null;
    try {
      tree = run(text, Math.max(1, deadline - performance.now()));
    } catch (err) {
      return { kind: 'parser-error', message: `parser failed: ${(err as Error).message}` };
    }
    if (!tree) return { kind: 'timeout', message: timeout() };
    // The budget covers copying the tree too: for a huge input that costs more than parsing.
    let copied: ReturnType<typeof copyTree>;
    if ('words' in tree) {
      try {
        copied = copyExported(tree, limits.maxDepth, deadline, names);
      } catch (err) {
        return { kind: 'parser-error', message: `parser failed: ${(err as Error).message}` };
      }
    } else {
      try {
        copied = copyTree(tree, limits.maxDepth, deadline, names, text);
      } finally {
        tree.release?.();
      }
    }
    if ('timedOut' in copied) return { kind: 'timeout', message: timeout() };
    if ('tooDeep' in copied) return { kind: 'too-deep', message: `syntax nests deeper than ${limits.maxDepth} levels` };
    return copied;
  };
  return {
    backend,
    fallbackReason,
    parse(source, partial) {
      const limits = { ...DEFAULT_LIMITS, ...partial };
      if (source.length > limits.maxInputChars) {
        return {
          ok: false,
          kind: 'too-large',
          backend,
          message: `input is ${source.length} characters, over the limit of ${limits.maxInputChars}`,
        };
      }
      // Bash cannot receive a NUL in a command (argv and `-c` strings end at it; a script file
      // with one is refused as binary), and the analysis uses NUL internally to mark unknown
      // text (HOLE): a literal one would be read as "unknown" and could hide `..` from the
      // policy (`echo > x\0/../../../README.md`). Such input is unanalyzable, never guessed at.
      const nul = source.indexOf('\0');
      if (nul >= 0) {
        return { ok: false, kind: 'parser-error', backend, message: `input contains a NUL byte at offset ${nul}` };
      }
      const started = performance.now();
      const deadline = started + budgetMs(limits, source.length);
      let first = parseOnce(source, deadline, limits);
      if ('kind' in first) {
        return { ok: false, kind: first.kind, backend, message: first.message };
      }
      // Bash never reads past a top-level `exec COMMAND` line (./exec-end.ts): without errors the
      // tree is cut there; with errors, the text up to such a line is parsed alone.
      const firstRoot = first.root;
      const lines = execLines(source, first.hasErrors ? () => firstErrorAt(firstRoot) : Infinity);
      if (!first.hasErrors) {
        const root = lines.length > 0 ? execTail(first.root, source, lines) : null;
        if (root) {
          source = source.slice(0, root.end);
          first = { ...first, root };
        }
      } else {
        for (const line of lines) {
          if (line.end >= source.length) break;
          const prefix = source.slice(0, line.end);
          const r = parseOnce(prefix, deadline, limits);
          if ('kind' in r || r.hasErrors || !endsInExec(r.root, prefix)) continue;
          source = prefix;
          first = r;
          break;
        }
      }
      // Where the grammar reads the input differently from bash, a targeted re-parse (./recover.ts).
      const reparse: Reparse = (text) => {
        const r = parseOnce(text, deadline, limits);
        return 'kind' in r ? { failed: r.message } : r;
      };
      const rec = recover(source, first, reparse);
      if (rec.kind === 'wrong') return { ok: false, kind: 'parser-error', backend, message: rec.message, at: rec.at };
      let copied = rec.kind === 'recovered' ? rec.tree : first;
      let joined = rec.joined;
      // An error left: it costs only the top-level commands it is in (./recover.ts).
      if (copied.hasErrors) {
        const isolated = isolate(source, copied, (text) => {
          const r = reparse(text);
          if ('failed' in r) return r;
          const again = recover(text, r, reparse);
          return again.kind === 'recovered' ? again.tree : r;
        });
        if (isolated) {
          copied = isolated;
          // The check is on the tree that is analyzed: a joined line the errors made in the whole
          // file's tree is gone when each command is read on its own, and one that stays is found.
          joined = findJoinedLines(copied.root, source);
        }
      }
      if (joined) {
        return {
          ok: false,
          kind: 'parser-error',
          backend,
          message: `the parser joined line ${joined.row + 1} with the next into one command (a known tree-sitter-bash misparse); the command cannot be read reliably`,
          at: joined.offset,
        };
      }
      return { ok: true, root: copied.root, source, backend, hasErrors: copied.hasErrors, depth: copied.depth };
    },
  };
}

export type BackendChoice = BackendName | 'auto';

function requestedBackend(): BackendChoice {
  const env = process.env.BASHGUARD_PARSER;
  if (env === 'wasm' || env === 'native') return env;
  return 'auto';
}

const parsers = new Map<BackendChoice, Promise<BashParser>>();

/**
 * Returns the parser for `choice` (default: BASHGUARD_PARSER, else auto). `native` fails if the
 * addon cannot load; `auto` falls back to WASM and records why.
 */
export function getParser(choice: BackendChoice = requestedBackend()): Promise<BashParser> {
  let p = parsers.get(choice);
  if (!p) {
    p = createParser(choice);
    parsers.set(choice, p);
  }
  return p;
}

async function createParser(choice: BackendChoice): Promise<BashParser> {
  if (choice !== 'wasm') {
    try {
      loadNative();
      return makeParser('native', null, nativeParse);
    } catch (err) {
      if (choice === 'native') throw err;
      const reason = `native tree-sitter binding did not load (${(err as Error).message.split('\n')[0]})`;
      const wasm = await loadWasm();
      return makeParser('wasm', reason, (s, t) => wasmParse(wasm, s, t));
    }
  }
  const wasm = await loadWasm();
  return makeParser('wasm', 'forced by BASHGUARD_PARSER=wasm or --parser wasm', (s, t) => wasmParse(wasm, s, t));
}
