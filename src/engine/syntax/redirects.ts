/**
 * Redirects: `>`, `>>`, `<`, `<>`, `>&`, closes, here-strings (heredocs in heredocs.ts), and where
 * they belong. Grammar quirks read here:
 * - `a && b > f` and `a | b > f` parse as a redirected_statement whose body is the whole list
 *   or pipeline; in bash the redirect belongs to the last command only.
 * - `3<>file` is not in the grammar: it parses as `<` followed by an ERROR holding `>`.
 * - `rm > /dev/null /x`: the grammar hangs the words after a redirect's target on the redirect;
 *   in bash they are arguments of the command (kept aside in SPILLED until the command is built).
 */
import type { SyntaxNode } from '../parse/index.js';
import type { BuildContext } from './context.js';
import type { Command, Redirect, RedirectOp, SimpleCommand, Word } from './ir.js';
import { heredocRedirect } from './heredocs.js';
import { concat, word } from './words.js';

/** Words the grammar hung on a redirect (after its target, or after a close) that are really arguments of the command. */
const SPILLED = new WeakMap<Redirect, Word[]>();

/** The command's words with those its redirects took, in source order. */
export function withSpilled(words: Word[], redirects: Redirect[]): Word[] {
  if (redirects.length === 0) return words;
  const spilled = redirects.flatMap((r) => SPILLED.get(r) ?? []);
  if (spilled.length === 0) return words;
  return [...words, ...spilled].sort((a, b) => a.range.start - b.range.start);
}

export function redirectedStatement(cx: BuildContext, n: SyntaxNode): Command {
  const bodyNode = n.children.find((c) => c.field === 'body');
  const redirectNodes = n.children.filter((c) => c.field === 'redirect' || c.type.endsWith('_redirect'));
  const redirects: Redirect[] = [];
  let continuation = null as ((cmd: Command) => Command) | null;
  for (const r of redirectNodes) {
    if (r.type === 'heredoc_redirect') {
      const { redirects: rs, wrap } = heredocRedirect(cx, r);
      redirects.push(...rs);
      if (wrap) {
        const prev: ((cmd: Command) => Command) | null = continuation;
        continuation = prev ? (cmd) => wrap(prev(cmd)) : wrap;
      }
    } else {
      redirects.push(...redirect(cx, r));
    }
  }
  if (!bodyNode) {
    // A bare redirect such as `> file` truncates the file: model it as an empty command.
    const cmd: SimpleCommand = { kind: 'simple', assigns: [], words: [], declarations: [], redirects, range: cx.range(n) };
    return continuation ? continuation(cmd) : cmd;
  }
  const body = cx.statement(bodyNode);
  const attached = attachRedirects(body, redirects);
  return continuation ? continuation(attached) : attached;
}

export function redirect(cx: BuildContext, n: SyntaxNode): Redirect[] {
  if (n.type === 'heredoc_redirect') return heredocRedirect(cx, n).redirects;
  const fdNode = n.children.find((c) => c.field === 'descriptor');
  let fd = fdNode ? Number(cx.text(fdNode)) : null;
  if (fd === null && cx.pendingFd && cx.pendingFd.at === n.start) fd = cx.pendingFd.fd;
  cx.pendingFd = null;
  if (n.type === 'herestring_redirect') {
    const target = n.children.find((c) => c.named && c.field !== 'descriptor');
    return [{ op: '<<<', fd, target: target ? word(cx, target) : null, heredoc: null, range: cx.range(n) }];
  }
  if (n.type !== 'file_redirect') {
    return [{ op: '<', fd, target: { parts: [cx.unknownPart(n, `unsupported redirect (${n.type})`)], text: cx.text(n), range: cx.range(n) }, heredoc: null, range: cx.range(n) }];
  }
  let op = n.children.find((c) => !c.named)?.type ?? '>';
  const opNode = n.children.find((c) => !c.named);
  const isClose = op === '>&-' || op === '<&-';
  const err = n.children.find((c) => c.type === 'ERROR');
  // Words the grammar hung on this redirect that bash reads as arguments of the command.
  const spilled: SyntaxNode[] = [];
  if (err) {
    // `N<>file`: the grammar has no `<>`; it yields `<` then an ERROR holding `>`.
    if (op === '<' && cx.text(err).trim() === '>') {
      op = '<>';
      cx.handled.add(err);
    } else if (isClose && opNode && /^[\sA-Za-z0-9_./,:=+@%^-]+$/.test(cx.source.slice(opNode.end, n.end))) {
      // `cmd 2>&- /x -f`: the grammar garbles the words after a close (ERROR nodes); in bash
      // they are plain arguments. Only plain literal words are recovered, by splitting the text.
      cx.handled.add(err);
      const r: Redirect = { op: op as RedirectOp, fd, target: null, heredoc: null, range: cx.rangeOf(cx.range(n), cx.range(opNode)) };
      const words: Word[] = [];
      const re = /\S+/g;
      const rest = cx.source.slice(opNode.end, n.end);
      for (let m = re.exec(rest); m; m = re.exec(rest)) {
        const start = opNode.end + m.index;
        words.push({ parts: [{ kind: 'text', value: m[0], quoting: 'none' }], text: m[0], range: cx.offsetRange(start, start + m[0].length) });
      }
      SPILLED.set(r, words);
      return [r];
    } else return [{ op: '>', fd, target: { parts: [cx.unknownPart(n, 'syntax error in redirect')], text: cx.text(n), range: cx.range(n) }, heredoc: null, range: cx.range(n) }];
  }
  // The grammar accepts several destinations (`> a b`). Only the first is the target; later ones
  // joined by a line continuation (`> /ho\<newline>me`) are part of it; the rest are arguments of
  // the command (`rm > /dev/null /x` removes /x). A close (`>&-`) takes no target at all.
  const dest = n.children.filter((c) => c.field === 'destination');
  const targetNodes: SyntaxNode[] = [];
  for (const d of dest) {
    const prev = targetNodes[targetNodes.length - 1];
    if (isClose || spilled.length > 0) spilled.push(d);
    else if (!prev || (d.start === prev.end + 2 && cx.source.slice(prev.end, d.start) === '\\\n')) targetNodes.push(d);
    else spilled.push(d);
  }
  spilled.sort((a, b) => a.start - b.start);
  // `>&3 0<&3`: a number written against the next redirect is that redirect's fd, not a word.
  const lastSpilled = spilled[spilled.length - 1];
  if (lastSpilled && lastSpilled.type === 'number' && /[<>]/.test(cx.source[lastSpilled.end] ?? '')) {
    spilled.pop();
    cx.pendingFd = { at: lastSpilled.end, fd: Number(cx.text(lastSpilled)) };
  }
  let target: Word | null = null;
  if (targetNodes.length === 1) target = word(cx, targetNodes[0]!);
  else if (targetNodes.length > 1) target = concat(cx, targetNodes);
  const endNode = targetNodes[targetNodes.length - 1] ?? opNode ?? n;
  const range = spilled.length === 0 && endNode === targetNodes[targetNodes.length - 1] ? cx.range(n) : cx.rangeOf(cx.range(n), cx.range(endNode));
  const r: Redirect = { op: op as RedirectOp, fd, target, heredoc: null, range };
  if (spilled.length > 0) SPILLED.set(r, spilled.map((d) => word(cx, d)));
  return [r];
}

/**
 * Redirects written after a list or pipeline belong to its last command (bash grammar);
 * after a compound command they apply to the whole compound.
 */
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
