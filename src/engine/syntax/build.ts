/**
 * Tree to IR. This is the only module that knows tree-sitter-bash node kinds. Anything it does
 * not recognise becomes an `unknown` command or word part: "cannot analyze", never "safe".
 *
 * Grammar quirks handled here (each has a test in test/system/engine/syntax.test.ts):
 * - `a && b > f` and `a | b > f` parse as a redirected_statement whose body is the whole list
 *   or pipeline; in bash the redirect belongs to the last command only.
 * - `cmd <<EOF | next`, `cmd <<EOF && next` and `cmd <<EOF > f`: the rest of the pipeline, list
 *   or redirects is nested *inside* the heredoc_redirect node.
 * - `3<>file` is not in the grammar: it parses as `<` followed by an ERROR holding `>`.
 * - `$"text"` (locale string) parses as a lone `$` argument followed by a string.
 * - `if`/`while` conditions carry their `;` terminators in the `condition` field.
 * - `(( expr ))` is a compound_statement, like `{ ...; }`.
 * - comments are named nodes anywhere a statement can be.
 */
import type { SyntaxNode, ParseSuccess, Point } from '../parse/index.js';
import { pointFinder } from '../parse/tree.js';
import type {
  Assignment,
  Command,
  Heredoc,
  Quoting,
  Range,
  Redirect,
  RedirectOp,
  Script,
  Sequence,
  SimpleCommand,
  Word,
  WordPart,
} from './ir.js';

const DECLARATION_BUILTINS = new Set(['export', 'local', 'declare', 'readonly', 'typeset']);

class Builder {
  readonly problems: Script['problems'] = [];
  /** The node span each problem stands for (a problem's range may start inside it). */
  readonly reported: [number, number][] = [];
  /** ERROR nodes that are a known grammar quirk read correctly here (`3<>f`): not problems. */
  readonly handled = new Set<SyntaxNode>();
  /** `>&3 0<&3`: the grammar gave `0` to the previous redirect; it is the next one's fd. */
  pendingFd: { at: number; fd: number } | null = null;
  private readonly pointAt: (offset: number) => Point;
  /** Whether the source has a line continuation (`\\` then a newline) anywhere. */
  private readonly hasContinuation: boolean;
  constructor(readonly source: string) {
    this.pointAt = pointFinder(source);
    this.hasContinuation = source.includes('\\\n');
  }

  range(n: SyntaxNode): Range {
    return this.offsetRange(n.start, n.end);
  }

  /** A range from offsets (also for text the grammar did not give a node). */
  offsetRange(start: number, end: number): Range {
    const a = this.pointAt(start);
    const b = this.pointAt(end);
    return { start, end, line: a.row + 1, column: a.column + 1, endLine: b.row + 1, endColumn: b.column + 1 };
  }

  rangeOf(first: Range, last: Range): Range {
    return { ...first, end: last.end, endLine: last.endLine, endColumn: last.endColumn };
  }

  text(n: SyntaxNode): string {
    return this.source.slice(n.start, n.end);
  }

  unknown(n: SyntaxNode, reason: string): Command {
    const range = this.range(n);
    const text = this.text(n);
    this.problems.push({ reason, range: this.problemRange(n), text });
    this.reported.push([n.start, n.end]);
    return { kind: 'unknown', reason, text, range };
  }

  /**
   * Where a problem is reported: for an ERROR node, from its first child the grammar could not
   * place (a stray token, a nested ERROR, a missing node). Tree-sitter often starts an ERROR at
   * the top of the file and keeps the valid statements before the real error inside it.
   */
  problemRange(n: SyntaxNode): Range {
    if (n.type !== 'ERROR') return this.range(n);
    const bad = n.children.find((c) => !c.named || c.type === 'ERROR' || c.missing);
    return bad ? this.offsetRange(bad.start, n.end) : this.range(n);
  }

  unknownPart(n: SyntaxNode, reason: string): WordPart {
    const text = this.text(n);
    this.problems.push({ reason, range: this.range(n), text });
    this.reported.push([n.start, n.end]);
    return { kind: 'unknown', text, reason };
  }

  // ---------------------------------------------------------------- statements

  program(root: SyntaxNode): Sequence {
    return this.sequence(root, root.children);
  }

  /** Statements separated by `;`, `&`, newlines. `&` marks the statement before it as background. */
  sequence(owner: SyntaxNode, nodes: SyntaxNode[]): Sequence {
    const items: Sequence['items'] = [];
    for (const n of nodes) {
      if (!n.named) {
        if (n.type === '&' && items.length > 0) items[items.length - 1]!.background = true;
        continue;
      }
      if (n.type === 'comment') continue;
      if (n.type === 'heredoc_body') continue; // consumed by its heredoc_redirect
      items.push({ command: this.statement(n), background: false });
    }
    return { kind: 'sequence', items, range: this.range(owner) };
  }

  statement(n: SyntaxNode): Command {
    if (n.missing) return this.unknown(n, `missing ${n.type}`);
    switch (n.type) {
      case 'command':
        return this.simpleCommand(n);
      case 'declaration_command':
      case 'unset_command':
        return this.declarationCommand(n);
      case 'variable_assignment':
        return this.bareAssignments(n, [n]);
      case 'variable_assignments':
        return this.bareAssignments(n, n.children.filter((c) => c.type === 'variable_assignment'));
      case 'redirected_statement':
        return this.redirectedStatement(n);
      case 'list':
        return this.list(n);
      case 'pipeline':
        return this.pipeline(n);
      case 'negated_command': {
        const inner = n.children.find((c) => c.named && c.type !== 'comment');
        const body = inner ? this.statement(inner) : this.unknown(n, 'empty negation');
        return { kind: 'pipeline', commands: [body], negated: true, range: this.range(n) };
      }
      case 'subshell':
        return { kind: 'subshell', body: this.sequence(n, n.children), redirects: [], range: this.range(n) };
      case 'compound_statement':
        return this.compound(n);
      case 'if_statement':
        return this.ifStatement(n);
      case 'while_statement':
        return this.whileStatement(n);
      case 'for_statement':
        return this.forStatement(n);
      case 'c_style_for_statement':
        return this.cForStatement(n);
      case 'case_statement':
        return this.caseStatement(n);
      case 'function_definition':
        return this.functionDefinition(n);
      case 'test_command': {
        const args = this.testArgs(n);
        const single = n.children[0]?.type === '[';
        return { kind: 'test', words: this.expansionsIn(n), ...(args ? { args, ...(single ? { single } : {}) } : {}), redirects: [], range: this.range(n) };
      }
      case 'ERROR':
        return this.unknown(n, 'syntax error');
      default:
        return this.unknown(n, `unsupported syntax (${n.type})`);
    }
  }

  simpleCommand(n: SyntaxNode): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const kids = n.children;
    for (let i = 0; i < kids.length; i++) {
      const c = kids[i]!;
      if (c.type === 'variable_assignment') {
        // After the command name, or with a name bash does not accept, `x=y` is a plain word.
        if (words.length === 0 && this.validAssignment(c)) assigns.push(this.assignment(c));
        else words.push(this.assignmentAsWord(c));
      } else if (c.field === 'name') words.push(this.word(c.children.find((x) => x.named) ?? c));
      else if (c.field === 'redirect' || c.type.endsWith('_redirect')) redirects.push(...this.redirect(c));
      else if (c.field === 'argument') {
        // `$"text"`: the grammar splits the locale string into `$` and a string.
        const next = kids[i + 1];
        if (!c.named && c.type === '$' && next && next.type === 'string' && next.start === c.end) {
          const w = this.word(next);
          w.parts = w.parts.map((p) => (p.kind === 'text' ? { ...p, quoting: 'locale' as Quoting } : p));
          words.push({ ...w, text: this.source.slice(c.start, next.end), range: this.rangeOf(this.range(c), w.range) });
          i++;
        } else if (c.named) words.push(this.word(c));
        else words.push({ parts: [{ kind: 'text', value: this.text(c), quoting: 'none' }], text: this.text(c), range: this.range(c) });
      } else if (c.type === 'ERROR') {
        return this.unknown(n, 'syntax error in command');
      } else if (c.type === 'comment') {
        continue;
      } else if (c.named) {
        return this.unknown(n, `unsupported syntax in command (${c.type})`);
      }
    }
    return { kind: 'simple', assigns, words: this.joinContinuations(withSpilled(words, redirects)), declarations: [], redirects, range: this.range(n) };
  }

  /**
   * `rm /ho\<newline>me/x`: bash removes a line continuation before splitting words, so this is
   * one word `/home/x`; the grammar treats the continuation as a separator and yields two.
   */
  joinContinuations(words: Word[]): Word[] {
    // Only a backslash-newline in the source can join two words.
    if (words.length < 2 || !this.hasContinuation) return words;
    const out: Word[] = [];
    for (const w of words) {
      const prev = out[out.length - 1];
      if (prev && w.range.start === prev.range.end + 2 && this.source.slice(prev.range.end, w.range.start) === '\\\n') {
        // A `~` is only special at the start of the whole word.
        const parts = w.parts.map((p): WordPart => (p.kind === 'tilde' ? { kind: 'text', value: `~${p.user}`, quoting: 'none' } : p));
        out[out.length - 1] = { parts: mergeText([...prev.parts, ...parts]), text: this.source.slice(prev.range.start, w.range.end), range: this.rangeOf(prev.range, w.range) };
      } else out.push(w);
    }
    return out;
  }

  declarationCommand(n: SyntaxNode): Command {
    const words: Word[] = [];
    const declarations: Assignment[] = [];
    for (const c of n.children) {
      if (!c.named) {
        if (c.type === 'export' || c.type === 'local' || c.type === 'declare' || c.type === 'readonly' ||
          c.type === 'typeset' || c.type === 'unset' || c.type === 'unsetenv') {
          words.push(this.literalWord(c));
        }
        continue;
      }
      if (c.type === 'variable_assignment') {
        if (this.validAssignment(c)) declarations.push(this.assignment(c));
        else words.push(this.assignmentAsWord(c));
      } else if (c.type === 'variable_name') words.push(this.literalWord(c));
      else if (c.type === 'comment') continue;
      else if (c.type === 'ERROR') return this.unknown(n, 'syntax error in declaration');
      else words.push(this.word(c));
    }
    const first = words[0];
    if (first && !DECLARATION_BUILTINS.has(first.text) && first.text !== 'unset' && first.text !== 'unsetenv') {
      return this.unknown(n, `unsupported declaration (${first.text})`);
    }
    return { kind: 'simple', assigns: [], words, declarations, redirects: [], range: this.range(n) };
  }

  bareAssignments(owner: SyntaxNode, nodes: SyntaxNode[]): Command {
    const assigns: Assignment[] = [];
    const words: Word[] = [];
    for (const a of nodes) {
      if (words.length === 0 && this.validAssignment(a)) assigns.push(this.assignment(a));
      else words.push(this.assignmentAsWord(a));
    }
    return { kind: 'simple', assigns, words, declarations: [], redirects: [], range: this.range(owner) };
  }

  /**
   * Whether bash reads `name=value` as an assignment: the name must be an ASCII identifier
   * (optionally subscripted); bash runs `à=b` as a command. Both pinned grammar builds already
   * lex ASCII-only names (grammars/README.md), but the native scanner asks the C library, so in a
   * host process that switched LC_CTYPE to a UTF-8 locale it would accept `à`: this keeps the IR
   * bash's either way.
   */
  validAssignment(n: SyntaxNode): boolean {
    const nameNode = n.children.find((c) => c.field === 'name');
    if (!nameNode) return true;
    return /^[A-Za-z_][A-Za-z0-9_]*(\[[\s\S]*\])?$/.test(this.text(nameNode));
  }

  /** An assignment-shaped node read as an ordinary word (`à=b`). */
  assignmentAsWord(n: SyntaxNode): Word {
    return { parts: this.concatParts(n, true), text: this.text(n), range: this.range(n) };
  }

  assignment(n: SyntaxNode): Assignment {
    const nameNode = n.children.find((c) => c.field === 'name');
    const valueNode = n.children.find((c) => c.field === 'value');
    const op = n.children.find((c) => !c.named && (c.type === '=' || c.type === '+='));
    const name = nameNode ? this.text(nameNode) : '';
    if (!valueNode) return { name, append: op?.type === '+=', value: null, unknownValue: false, range: this.range(n) };
    if (valueNode.type === 'array') {
      const kids = valueNode.children.filter((c) => c.named && c.type !== 'comment');
      const elements = kids.some((c) => c.type === 'ERROR') ? undefined : kids.map((c) => this.word(c));
      return { name, append: op?.type === '+=', value: null, unknownValue: true, ...(elements ? { elements } : {}), range: this.range(n) };
    }
    return { name, append: op?.type === '+=', value: this.word(valueNode), unknownValue: false, range: this.range(n) };
  }

  redirectedStatement(n: SyntaxNode): Command {
    const bodyNode = n.children.find((c) => c.field === 'body');
    const redirectNodes = n.children.filter((c) => c.field === 'redirect' || c.type.endsWith('_redirect'));
    const redirects: Redirect[] = [];
    let continuation = null as ((cmd: Command) => Command) | null;
    for (const r of redirectNodes) {
      if (r.type === 'heredoc_redirect') {
        const { redirects: rs, wrap } = this.heredocRedirect(r);
        redirects.push(...rs);
        if (wrap) {
          const prev: ((cmd: Command) => Command) | null = continuation;
          continuation = prev ? (cmd) => wrap(prev(cmd)) : wrap;
        }
      } else {
        redirects.push(...this.redirect(r));
      }
    }
    if (!bodyNode) {
      // A bare redirect such as `> file` truncates the file: model it as an empty command.
      const cmd: SimpleCommand = { kind: 'simple', assigns: [], words: [], declarations: [], redirects, range: this.range(n) };
      return continuation ? continuation(cmd) : cmd;
    }
    const body = this.statement(bodyNode);
    const attached = attachRedirects(body, redirects);
    return continuation ? continuation(attached) : attached;
  }

  /**
   * A heredoc redirect, plus whatever the grammar nested inside it: more redirects for the same
   * command, the rest of a pipeline (`| next`) or of a list (`&& next`).
   */
  heredocRedirect(n: SyntaxNode): { redirects: Redirect[]; wrap: ((cmd: Command) => Command) | null } {
    const startNode = n.children.find((c) => c.type === 'heredoc_start');
    const bodyNode = n.children.find((c) => c.type === 'heredoc_body');
    const opNode = n.children.find((c) => !c.named && (c.type === '<<' || c.type === '<<-'));
    const fdNode = n.children.find((c) => c.field === 'descriptor');
    const rawDelim = startNode ? this.text(startNode) : '';
    const quoted = /['"\\]/.test(rawDelim);
    const delimiter = rawDelim.replace(/['"\\]/g, '');
    const body: Word = bodyNode
      ? quoted
        ? { parts: [{ kind: 'text', value: this.text(bodyNode), quoting: 'heredoc' }], text: this.text(bodyNode), range: this.range(bodyNode) }
        : this.heredocBody(bodyNode)
      : { parts: [], text: '', range: this.range(n) };
    // `<<-` strips leading tabs from every body line (and from the delimiter line).
    if (opNode?.type === '<<-') body.parts = stripHeredocTabs(body.parts);
    const heredoc: Heredoc = { delimiter, quoted, body };
    const redirects: Redirect[] = [
      {
        op: (opNode?.type ?? '<<') as RedirectOp,
        fd: fdNode ? Number(this.text(fdNode)) : null,
        target: null,
        heredoc,
        range: this.range(startNode ?? n),
      },
    ];
    for (const c of n.children) {
      if (c.field === 'redirect') redirects.push(...this.redirect(c));
    }
    let wrap: ((cmd: Command) => Command) | null = null;
    const pipeNode = n.children.find((c) => c.type === 'pipeline');
    const opField = n.children.find((c) => c.field === 'operator');
    const right = n.children.find((c) => c.field === 'right');
    if (pipeNode) {
      const rest = pipeNode.children.filter((c) => c.named && c.type !== 'comment').map((c) => this.statement(c));
      wrap = (cmd) => ({ kind: 'pipeline', commands: [cmd, ...rest], negated: false, range: this.rangeOf(cmd.range, this.range(pipeNode)) });
    }
    if (opField && right) {
      const op = opField.type as string;
      const rightCmd = this.statement(right);
      const inner = wrap;
      if (op === '&&' || op === '||') {
        wrap = (cmd) => ({ kind: 'and-or', op, left: inner ? inner(cmd) : cmd, right: rightCmd, range: this.rangeOf(cmd.range, rightCmd.range) });
      } else if (op === '|' || op === '|&') {
        wrap = (cmd) => ({ kind: 'pipeline', commands: [inner ? inner(cmd) : cmd, rightCmd], negated: false, range: this.rangeOf(cmd.range, rightCmd.range) });
      } else {
        wrap = (cmd) => ({
          kind: 'sequence',
          items: [
            { command: inner ? inner(cmd) : cmd, background: op === '&' },
            { command: rightCmd, background: false },
          ],
          range: this.rangeOf(cmd.range, rightCmd.range),
        });
      }
    }
    return { redirects, wrap };
  }

  heredocBody(n: SyntaxNode): Word {
    const parts: WordPart[] = [];
    let pos = n.start;
    const pushText = (to: number) => {
      if (to > pos) parts.push({ kind: 'text', value: unescapeDouble(this.source.slice(pos, to)), quoting: 'heredoc' });
    };
    for (const c of n.children) {
      if (c.type === 'heredoc_content') continue;
      if (!c.named) continue;
      pushText(c.start);
      parts.push(...this.expansionPart(c, true));
      pos = c.end;
    }
    pushText(n.end);
    return { parts, text: this.text(n), range: this.range(n) };
  }

  redirect(n: SyntaxNode): Redirect[] {
    if (n.type === 'heredoc_redirect') return this.heredocRedirect(n).redirects;
    const fdNode = n.children.find((c) => c.field === 'descriptor');
    let fd = fdNode ? Number(this.text(fdNode)) : null;
    if (fd === null && this.pendingFd && this.pendingFd.at === n.start) fd = this.pendingFd.fd;
    this.pendingFd = null;
    if (n.type === 'herestring_redirect') {
      const target = n.children.find((c) => c.named && c.field !== 'descriptor');
      return [{ op: '<<<', fd, target: target ? this.word(target) : null, heredoc: null, range: this.range(n) }];
    }
    if (n.type !== 'file_redirect') {
      return [{ op: '<', fd, target: { parts: [this.unknownPart(n, `unsupported redirect (${n.type})`)], text: this.text(n), range: this.range(n) }, heredoc: null, range: this.range(n) }];
    }
    let op = n.children.find((c) => !c.named)?.type ?? '>';
    const opNode = n.children.find((c) => !c.named);
    const isClose = op === '>&-' || op === '<&-';
    const err = n.children.find((c) => c.type === 'ERROR');
    // Words the grammar hung on this redirect that bash reads as arguments of the command.
    const spilled: SyntaxNode[] = [];
    if (err) {
      // `N<>file`: the grammar has no `<>`; it yields `<` then an ERROR holding `>`.
      if (op === '<' && this.text(err).trim() === '>') {
        op = '<>';
        this.handled.add(err);
      } else if (isClose && opNode && /^[\sA-Za-z0-9_./,:=+@%^-]+$/.test(this.source.slice(opNode.end, n.end))) {
        // `cmd 2>&- /x -f`: the grammar garbles the words after a close (ERROR nodes); in bash
        // they are plain arguments. Only plain literal words are recovered, by splitting the text.
        this.handled.add(err);
        const r: Redirect = { op: op as RedirectOp, fd, target: null, heredoc: null, range: this.rangeOf(this.range(n), this.range(opNode)) };
        const words: Word[] = [];
        const re = /\S+/g;
        const rest = this.source.slice(opNode.end, n.end);
        for (let m = re.exec(rest); m; m = re.exec(rest)) {
          const start = opNode.end + m.index;
          words.push({ parts: [{ kind: 'text', value: m[0], quoting: 'none' }], text: m[0], range: this.offsetRange(start, start + m[0].length) });
        }
        SPILLED.set(r, words);
        return [r];
      } else return [{ op: '>', fd, target: { parts: [this.unknownPart(n, 'syntax error in redirect')], text: this.text(n), range: this.range(n) }, heredoc: null, range: this.range(n) }];
    }
    // The grammar accepts several destinations (`> a b`). Only the first is the target; later ones
    // joined by a line continuation (`> /ho\<newline>me`) are part of it; the rest are arguments of
    // the command (`rm > /dev/null /x` removes /x). A close (`>&-`) takes no target at all.
    const dest = n.children.filter((c) => c.field === 'destination');
    const targetNodes: SyntaxNode[] = [];
    for (const d of dest) {
      const prev = targetNodes[targetNodes.length - 1];
      if (isClose || spilled.length > 0) spilled.push(d);
      else if (!prev || (d.start === prev.end + 2 && this.source.slice(prev.end, d.start) === '\\\n')) targetNodes.push(d);
      else spilled.push(d);
    }
    spilled.sort((a, b) => a.start - b.start);
    // `>&3 0<&3`: a number written against the next redirect is that redirect's fd, not a word.
    const lastSpilled = spilled[spilled.length - 1];
    if (lastSpilled && lastSpilled.type === 'number' && /[<>]/.test(this.source[lastSpilled.end] ?? '')) {
      spilled.pop();
      this.pendingFd = { at: lastSpilled.end, fd: Number(this.text(lastSpilled)) };
    }
    let target: Word | null = null;
    if (targetNodes.length === 1) target = this.word(targetNodes[0]!);
    else if (targetNodes.length > 1) target = this.concat(targetNodes);
    const endNode = targetNodes[targetNodes.length - 1] ?? opNode ?? n;
    const range = spilled.length === 0 && endNode === targetNodes[targetNodes.length - 1] ? this.range(n) : this.rangeOf(this.range(n), this.range(endNode));
    const r: Redirect = { op: op as RedirectOp, fd, target, heredoc: null, range };
    if (spilled.length > 0) SPILLED.set(r, spilled.map((d) => this.word(d)));
    return [r];
  }

  list(n: SyntaxNode): Command {
    let acc: Command | null = null;
    let op: '&&' | '||' | null = null;
    for (const c of n.children) {
      if (!c.named) {
        if (c.type === '&&' || c.type === '||') op = c.type;
        continue;
      }
      if (c.type === 'comment') continue;
      const cmd = this.statement(c);
      if (!acc) acc = cmd;
      else acc = { kind: 'and-or', op: op ?? '&&', left: acc, right: cmd, range: this.rangeOf(acc.range, cmd.range) };
    }
    return acc ?? this.unknown(n, 'empty list');
  }

  pipeline(n: SyntaxNode): Command {
    const kids = n.children.filter((c) => c.named && c.type !== 'comment');
    // `! a | b` negates the whole pipeline in bash; the grammar attaches `!` to `a` only.
    const negFirst = kids[0]?.type === 'negated_command' ? kids[0] : null;
    const commands = kids.map((c) => {
      if (c !== negFirst) return this.statement(c);
      const inner = c.children.find((x) => x.named && x.type !== 'comment');
      return inner ? this.statement(inner) : this.unknown(c, 'empty negation');
    });
    return { kind: 'pipeline', commands, negated: negFirst !== null, range: this.range(n) };
  }

  compound(n: SyntaxNode): Command {
    if (n.children[0]?.type === '((') {
      return { kind: 'test', words: this.expansionsIn(n), redirects: [], range: this.range(n) };
    }
    return { kind: 'group', body: this.sequence(n, n.children), redirects: [], range: this.range(n) };
  }

  /** Statements of a clause: the named children that are not fields or nested clauses. */
  clauseBody(owner: SyntaxNode, nodes: SyntaxNode[]): Sequence {
    return this.sequence(owner, nodes.filter((c) => c.field === null && c.type !== 'elif_clause' && c.type !== 'else_clause'));
  }

  ifStatement(n: SyntaxNode): Command {
    const branches: { condition: Command; body: Command }[] = [];
    const cond = n.children.filter((c) => c.field === 'condition');
    branches.push({ condition: this.sequence(n, cond), body: this.clauseBody(n, n.children) });
    let elseBody: Command | null = null;
    for (const c of n.children) {
      if (c.type === 'elif_clause') {
        const ec = c.children.filter((x) => x.field === 'condition');
        // Older grammars put the elif condition in unnamed children; the first statement is it.
        if (ec.length > 0) branches.push({ condition: this.sequence(c, ec), body: this.clauseBody(c, c.children) });
        else {
          const stmts = c.children.filter((x) => x.named && x.type !== 'comment');
          const [first, ...rest] = stmts;
          branches.push({
            condition: first ? this.statement(first) : this.unknown(c, 'elif without condition'),
            body: this.sequence(c, rest),
          });
        }
      } else if (c.type === 'else_clause') {
        elseBody = this.sequence(c, c.children);
      }
    }
    return { kind: 'if', branches, elseBody, redirects: [], range: this.range(n) };
  }

  whileStatement(n: SyntaxNode): Command {
    const isUntil = n.children[0]?.type === 'until';
    const cond = n.children.filter((c) => c.field === 'condition');
    const bodyNode = n.children.find((c) => c.field === 'body');
    return {
      kind: 'loop',
      loop: isUntil ? 'until' : 'while',
      variable: null,
      values: null,
      condition: this.sequence(n, cond),
      body: bodyNode ? this.doGroup(bodyNode) : this.unknown(n, 'loop without body'),
      redirects: [],
      range: this.range(n),
    };
  }

  doGroup(n: SyntaxNode): Command {
    if (n.type === 'do_group') return this.sequence(n, n.children);
    return this.statement(n);
  }

  forStatement(n: SyntaxNode): Command {
    const isSelect = n.children[0]?.type === 'select';
    const variable = n.children.find((c) => c.field === 'variable');
    const values = n.children.filter((c) => c.field === 'value');
    const hasIn = n.children.some((c) => !c.named && c.type === 'in');
    const bodyNode = n.children.find((c) => c.field === 'body');
    return {
      kind: 'loop',
      loop: isSelect ? 'select' : 'for',
      variable: variable ? this.text(variable) : null,
      values: hasIn ? values.map((v) => this.word(v)) : null,
      condition: null,
      body: bodyNode ? this.doGroup(bodyNode) : this.unknown(n, 'loop without body'),
      redirects: [],
      range: this.range(n),
    };
  }

  cForStatement(n: SyntaxNode): Command {
    const bodyNode = n.children.find((c) => c.field === 'body');
    const header = n.children.filter((c) => c.field === 'initializer' || c.field === 'condition' || c.field === 'update');
    const words = header.flatMap((h) => this.expansionsIn(h));
    return {
      kind: 'loop',
      loop: 'c-for',
      variable: null,
      values: null,
      condition: { kind: 'test', words, redirects: [], range: this.range(n) },
      body: bodyNode ? this.doGroup(bodyNode) : this.unknown(n, 'loop without body'),
      redirects: [],
      range: this.range(n),
    };
  }

  caseStatement(n: SyntaxNode): Command {
    const subjectNode = n.children.find((c) => c.field === 'value');
    const items: { patterns: Word[]; body: Command }[] = [];
    for (const item of n.children.filter((c) => c.type === 'case_item')) {
      const patterns = item.children.filter((c) => c.field === 'value').map((c) => this.word(c));
      const body = item.children.filter((c) => c.named && c.field === null && c.type !== 'comment');
      items.push({ patterns, body: this.sequence(item, body) });
    }
    return {
      kind: 'case',
      subject: subjectNode ? this.word(subjectNode) : { parts: [], text: '', range: this.range(n) },
      items,
      redirects: [],
      range: this.range(n),
    };
  }

  functionDefinition(n: SyntaxNode): Command {
    const nameNode = n.children.find((c) => c.field === 'name');
    const bodyNode = n.children.find((c) => c.field === 'body');
    const redirects = n.children.filter((c) => c.field === 'redirect').flatMap((r) => this.redirect(r));
    return {
      kind: 'function',
      name: nameNode ? this.text(nameNode) : '',
      body: bodyNode ? this.statement(bodyNode) : this.unknown(n, 'function without body'),
      redirects,
      range: this.range(n),
    };
  }

  /**
   * Expansions inside `[[ ]]`, `(( ))` and arithmetic headers: only command and process
   * substitutions can have effects there, so those are collected as words to evaluate.
   */
  expansionsIn(n: SyntaxNode): Word[] {
    const out: Word[] = [];
    const stack = [n];
    while (stack.length) {
      const c = stack.pop()!;
      if (c.type === 'command_substitution' || c.type === 'process_substitution') {
        out.push({ parts: this.expansionPart(c, false), text: this.text(c), range: this.range(c) });
      } else if (c.type === 'ERROR') {
        out.push({ parts: [this.unknownPart(c, 'syntax error in test')], text: this.text(c), range: this.range(c) });
      } else {
        for (let i = c.children.length - 1; i >= 0; i--) stack.push(c.children[i]!);
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- words

  literalWord(n: SyntaxNode): Word {
    const text = this.text(n);
    return { parts: [{ kind: 'text', value: text, quoting: 'none' }], text, range: this.range(n) };
  }

  word(n: SyntaxNode): Word {
    return { parts: this.wordParts(n, true), text: this.text(n), range: this.range(n) };
  }

  concat(nodes: SyntaxNode[]): Word {
    const first = nodes[0]!;
    const last = nodes[nodes.length - 1]!;
    const parts: WordPart[] = [];
    nodes.forEach((c, i) => parts.push(...this.wordParts(c, i === 0)));
    return { parts: mergeText(parts), text: this.source.slice(first.start, last.end), range: this.rangeOf(this.range(first), this.range(last)) };
  }

  wordParts(n: SyntaxNode, atStart: boolean): WordPart[] {
    if (n.missing) return [this.unknownPart(n, `missing ${n.type}`)];
    switch (n.type) {
      case 'regex':
        // `${v/'p'/r}`: a pattern's quotes are quote removal, not text (the grammar leaves the
        // pattern one node).
        if (!n.children.some((c) => c.named) && /['"\\]/.test(this.text(n))) {
          const parts = patternParts(this.text(n));
          if (parts) return parts;
        }
        if (n.children.some((c) => c.named)) return this.concatParts(n, atStart);
        return unquotedParts(this.text(n), atStart);
      case 'word':
      case 'number':
      case 'variable_name':
      case 'extglob_pattern':
      case 'special_variable_name':
      case 'test_operator':
      case 'file_descriptor':
        if (n.children.some((c) => c.named)) return this.concatParts(n, atStart);
        return unquotedParts(this.text(n), atStart);
      case 'brace_expression':
        return [{ kind: 'text', value: this.text(n), quoting: 'none' }];
      case 'raw_string':
        return [{ kind: 'text', value: this.text(n).slice(1, -1), quoting: 'single' }];
      case 'ansi_c_string':
        return [{ kind: 'text', value: decodeAnsiC(this.text(n).slice(2, -1)), quoting: 'ansi-c' }];
      case 'string':
        return this.doubleQuoted(n);
      case 'translated_string': {
        const inner = n.children.find((c) => c.type === 'string');
        const parts = inner ? this.doubleQuoted(inner) : [];
        return parts.map((p) => (p.kind === 'text' ? { ...p, quoting: 'locale' as Quoting } : p));
      }
      case 'concatenation':
        return this.concatParts(n, atStart);
      case 'simple_expansion':
      case 'expansion':
      case 'command_substitution':
      case 'process_substitution':
      case 'arithmetic_expansion':
        return this.expansionPart(n, false);
      case 'ERROR':
        return [this.unknownPart(n, 'syntax error in word')];
      default:
        return [this.unknownPart(n, `unsupported word syntax (${n.type})`)];
    }
  }

  concatParts(n: SyntaxNode, atStart: boolean): WordPart[] {
    const parts: WordPart[] = [];
    let pos = n.start;
    for (const c of n.children) {
      // Text the grammar left between children (rare) is literal, unquoted.
      if (c.start > pos) parts.push(...unquotedParts(this.source.slice(pos, c.start), atStart && pos === n.start));
      const t = this.text(c);
      if (!c.named && /^\$[$!#?*@0-9-]$/.test(t)) {
        // `x.$$`: inside a concatenation the grammar leaves special parameters anonymous.
        parts.push({ kind: 'param', name: t.slice(1), op: null, arg: null, quoted: false, text: t });
      } else parts.push(...(c.named ? this.wordParts(c, atStart && c.start === n.start) : unquotedParts(t, atStart && c.start === n.start)));
      pos = c.end;
    }
    if (n.end > pos) parts.push(...unquotedParts(this.source.slice(pos, n.end), false));
    return mergeText(parts);
  }

  doubleQuoted(n: SyntaxNode): WordPart[] {
    const parts: WordPart[] = [];
    // Everything between the quotes that is not an expansion is literal text.
    const open = n.start + (this.source[n.start] === '$' ? 2 : 1);
    const close = this.source[n.end - 1] === '"' ? n.end - 1 : n.end;
    let pos = open;
    for (const c of n.children) {
      if (!c.named || c.type === 'string_content') continue;
      if (c.start > pos) parts.push({ kind: 'text', value: unescapeDouble(this.source.slice(pos, c.start)), quoting: 'double' });
      parts.push(...this.expansionPart(c, true));
      pos = c.end;
    }
    if (close > pos) parts.push({ kind: 'text', value: unescapeDouble(this.source.slice(pos, close)), quoting: 'double' });
    if (parts.length === 0) parts.push({ kind: 'text', value: '', quoting: 'double' });
    return parts;
  }

  expansionPart(n: SyntaxNode, quoted: boolean): WordPart[] {
    const text = this.text(n);
    switch (n.type) {
      case 'simple_expansion': {
        const name = n.children.find((c) => c.named);
        return [{ kind: 'param', name: name ? this.text(name) : text.slice(1), op: null, arg: null, quoted, text }];
      }
      case 'expansion':
        return [this.parameterExpansion(n, quoted)];
      case 'command_substitution': {
        const inner = n.children.filter((c) => c.named && c.field !== 'redirect');
        const redirects = n.children.filter((c) => c.field === 'redirect');
        let body: Command = this.sequence(n, inner);
        if (redirects.length > 0) {
          // `$(< file)` reads a file: no write, but keep it analyzable.
          body = { kind: 'simple', assigns: [], words: [], declarations: [], redirects: redirects.flatMap((r) => this.redirect(r)), range: this.range(n) };
        }
        return [{ kind: 'command-sub', body, quoted, text }];
      }
      case 'process_substitution':
        return [{ kind: 'process-sub', body: this.sequence(n, n.children), direction: text.startsWith('>') ? '>' : '<', text }];
      case 'arithmetic_expansion': {
        const subs = this.expansionsIn(n).flatMap((w) => w.parts.flatMap((p) => (p.kind === 'command-sub' || p.kind === 'process-sub' ? [p.body] : [])));
        return [{ kind: 'arith', text, quoted, subs }];
      }
      default:
        return this.wordParts(n, false);
    }
  }

  /** `[[ ... ]]` as a flat list of operands and operators; null when it holds something else (a regex, an error). */
  testArgs(n: SyntaxNode): Word[] | null {
    const out: Word[] = [];
    const walk = (x: SyntaxNode): boolean => {
      for (const c of x.children) {
        if (c.type === '[[' || c.type === ']]' || c.type === '[' || c.type === ']' || c.type === 'comment') continue;
        if (c.type === 'unary_expression' || c.type === 'binary_expression' || c.type === 'parenthesized_expression') {
          if (!walk(c)) return false;
        } else if (c.type === 'ERROR' || c.type === 'regex' || c.type === 'extglob_pattern' || c.type === '=~' || c.missing) return false;
        else if (!c.named || c.type === 'test_operator') out.push(this.literalWord(c));
        else out.push(this.word(c));
      }
      return true;
    };
    return walk(n) ? out : null;
  }

  /** `${...}`: the name, the operator and its argument word (for defaults like `${X:-/path}`). */
  parameterExpansion(n: SyntaxNode, quoted: boolean): WordPart {
    const text = this.text(n);
    const kids = n.children.filter((c) => c.type !== '${' && c.type !== '}');
    let name = '';
    let op: string | null = null;
    const argNodes: SyntaxNode[] = [];
    let prefixOp: string | null = null;
    for (const c of kids) {
      if (!name && (c.type === 'variable_name' || c.type === 'special_variable_name')) name = this.text(c);
      else if (!name && c.type === 'subscript') {
        name = this.text(c);
        prefixOp = prefixOp ?? '[]';
      } else if (!name && !c.named) prefixOp = (prefixOp ?? '') + c.type;
      else if (op === null && !c.named && c.field === 'operator') op = c.type;
      else if (op === null && !c.named) op = c.type;
      else argNodes.push(c);
    }
    if (prefixOp) op = prefixOp + (op ?? '');
    let arg: Word | null = null;
    if (argNodes.length > 0) {
      const first = argNodes[0]!;
      const last = argNodes[argNodes.length - 1]!;
      const parts: WordPart[] = [];
      let pos = first.start;
      for (const c of argNodes) {
        if (c.start > pos) parts.push({ kind: 'text', value: this.source.slice(pos, c.start), quoting: quoted ? 'double' : 'none' });
        if (c.named) parts.push(...this.wordParts(c, c === first));
        else parts.push({ kind: 'text', value: this.text(c), quoting: quoted ? 'double' : 'none' });
        pos = c.end;
      }
      arg = { parts: mergeText(parts), text: this.source.slice(first.start, last.end), range: this.rangeOf(this.range(first), this.range(last)) };
    } else if (op && /^(:?[-=+?])$/.test(op)) {
      arg = { parts: [{ kind: 'text', value: '', quoting: 'none' }], text: '', range: this.range(n) };
    }
    return { kind: 'param', name, op, arg, quoted, text };
  }
}

/**
 * Redirects written after a list or pipeline belong to its last command (bash grammar);
 * after a compound command they apply to the whole compound.
 */
/** Words the grammar put after a `>&-` / `<&-` that are really arguments of the command. */
const SPILLED = new WeakMap<Redirect, Word[]>();

function withSpilled(words: Word[], redirects: Redirect[]): Word[] {
  if (redirects.length === 0) return words;
  const spilled = redirects.flatMap((r) => SPILLED.get(r) ?? []);
  if (spilled.length === 0) return words;
  return [...words, ...spilled].sort((a, b) => a.range.start - b.range.start);
}

function attachRedirects(cmd: Command, redirects: Redirect[]): Command {
  if (redirects.length === 0) return cmd;
  switch (cmd.kind) {
    case 'and-or':
      return { ...cmd, right: attachRedirects(cmd.right, redirects) };
    case 'pipeline':
      if (cmd.negated && cmd.commands.length === 1) return { ...cmd, commands: [attachRedirects(cmd.commands[0]!, redirects)] };
      return { ...cmd, commands: [...cmd.commands.slice(0, -1), attachRedirects(cmd.commands[cmd.commands.length - 1]!, redirects)] };
    case 'unknown':
    case 'sequence':
      return cmd;
    default: {
      // The command's range grows to cover redirects written after it (`cat > out.txt`).
      const last = redirects.reduce((a, r) => (r.range.end > a.end ? r.range : a), cmd.range);
      const range = last === cmd.range ? cmd.range : { ...cmd.range, end: last.end, endLine: last.endLine, endColumn: last.endColumn };
      if (cmd.kind === 'simple') return { ...cmd, words: withSpilled(cmd.words, redirects), redirects: [...cmd.redirects, ...redirects], range };
      return { ...cmd, redirects: [...cmd.redirects, ...redirects], range };
    }
  }
}

/** An unquoted word's text: backslash escapes, a leading tilde, line continuations. */
function unquotedParts(raw: string, atStart: boolean): WordPart[] {
  const parts: WordPart[] = [];
  let i = 0;
  if (atStart && raw.startsWith('~')) {
    const m = /^~([A-Za-z0-9._-]*|[+-])(?=\/|$)/.exec(raw);
    if (m) {
      parts.push({ kind: 'tilde', user: m[1]! });
      i = m[0].length;
    }
  }
  // Without a backslash the rest is one text part (most words): no copy character by character.
  if (raw.indexOf('\\', i) < 0) {
    if (i < raw.length) parts.push({ kind: 'text', value: i === 0 ? raw : raw.slice(i), quoting: 'none' });
    return parts;
  }
  let buf = '';
  const flush = () => {
    if (buf) parts.push({ kind: 'text', value: buf, quoting: 'none' });
    buf = '';
  };
  for (; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1]!;
      i++;
      if (next === '\n') continue;
      flush();
      parts.push({ kind: 'text', value: next, quoting: 'escape' });
      continue;
    }
    buf += ch;
  }
  flush();
  return parts;
}

/**
 * A pattern word with quotes and backslashes: single quotes, double quotes without expansions
 * inside, and backslash escapes give literal parts. Null when a double-quoted part expands.
 */
function patternParts(raw: string): WordPart[] | null {
  const parts: WordPart[] = [];
  let buf = '';
  const flush = () => {
    if (buf) parts.push({ kind: 'text', value: buf, quoting: 'none' });
    buf = '';
  };
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === "'") {
      const j = raw.indexOf("'", i + 1);
      if (j < 0) return null;
      flush();
      parts.push({ kind: 'text', value: raw.slice(i + 1, j), quoting: 'single' });
      i = j;
    } else if (ch === '"') {
      const j = raw.indexOf('"', i + 1);
      if (j < 0) return null;
      const inner = raw.slice(i + 1, j);
      if (/[$`\\]/.test(inner)) return null;
      flush();
      parts.push({ kind: 'text', value: inner, quoting: 'double' });
      i = j;
    } else if (ch === '\\' && i + 1 < raw.length) {
      flush();
      parts.push({ kind: 'text', value: raw[++i]!, quoting: 'escape' });
    } else buf += ch;
  }
  flush();
  return parts;
}

function stripHeredocTabs(parts: WordPart[]): WordPart[] {
  let atLineStart = true;
  return parts.map((p) => {
    if (p.kind !== 'text') {
      atLineStart = false;
      return p;
    }
    let value = p.value.replace(/\n\t+/g, '\n');
    if (atLineStart) value = value.replace(/^\t+/, '');
    atLineStart = value === '' ? atLineStart : value.endsWith('\n');
    return { ...p, value };
  });
}

function mergeText(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const prev = out[out.length - 1];
    if (p.kind === 'text' && prev?.kind === 'text' && prev.quoting === p.quoting) {
      out[out.length - 1] = { ...prev, value: prev.value + p.value };
    } else out.push(p);
  }
  return out;
}

/** Inside double quotes, a backslash escapes only `$`, backquote, `"`, `\` and newline. */
function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Decodes the body of `$'...'` the way bash does. */
export function decodeAnsiC(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const e = s[++i]!;
    const simple: Record<string, string> = {
      n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
      '\\': '\\', "'": "'", '"': '"', '?': '?',
    };
    if (e in simple) {
      out += simple[e];
    } else if (e === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (e === 'u' || e === 'U') {
      const m = (e === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 1));
      if (m) {
        const cp = parseInt(m[0], 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
        i += m[0].length;
      } else out += '\\' + e;
    } else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e === 'c' && i + 1 < s.length) {
      out += String.fromCharCode(s.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + e;
    }
  }
  return out;
}

/** Builds the IR for a successful parse. ERROR/MISSING nodes become `unknown` entries and problems. */
export function buildScript(parsed: ParseSuccess): Script {
  const b = new Builder(parsed.source);
  const body = b.program(parsed.root);
  if (parsed.hasErrors) {
    // Safety net: an ERROR or MISSING node the builder skipped (e.g. inside a heredoc_redirect,
    // `cat <<A <<B`) must still make the script unanalyzable, never silently dropped.
    const covered = (n: SyntaxNode) => b.reported.some(([start, end]) => start <= n.start && n.end <= end);
    const stack: SyntaxNode[] = [parsed.root];
    let added = false;
    while (stack.length) {
      const n = stack.pop()!;
      if (n.type === 'ERROR' || n.missing) {
        if (!covered(n) && !b.handled.has(n)) {
          b.problems.push({ reason: n.missing ? `missing ${n.type}` : 'syntax error', range: b.problemRange(n), text: b.text(n) });
          added = true;
        }
        continue;
      }
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
    if (added) b.problems.sort((x, y) => x.range.start - y.range.start || x.range.end - y.range.end);
  }
  return { body, source: parsed.source, problems: b.problems };
}
