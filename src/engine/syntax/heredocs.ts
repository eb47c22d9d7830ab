/**
 * Heredocs: the body as a word (literal when the delimiter is quoted, tabs stripped for `<<-`),
 * and what the grammar nests inside a heredoc_redirect node: in `cmd <<EOF | next`,
 * `cmd <<EOF && next` and `cmd <<EOF > f` the rest of the pipeline, of the list or of the
 * redirects sits inside the redirect, and is handed back as a wrapper around the command.
 */
import type { SyntaxNode } from '../parse/index.js';
import type { BuildContext } from './context.js';
import type { Command, Heredoc, Redirect, RedirectOp, Word, WordPart } from './ir.js';
import { unescapeDouble } from './word-text.js';
import { expansionPart } from './words.js';

/**
 * A heredoc redirect, plus whatever the grammar nested inside it: more redirects for the same
 * command, the rest of a pipeline (`| next`) or of a list (`&& next`).
 */
export function heredocRedirect(cx: BuildContext, n: SyntaxNode): { redirects: Redirect[]; wrap: ((cmd: Command) => Command) | null } {
  const startNode = n.children.find((c) => c.type === 'heredoc_start');
  const bodyNode = n.children.find((c) => c.type === 'heredoc_body');
  const opNode = n.children.find((c) => !c.named && (c.type === '<<' || c.type === '<<-'));
  const fdNode = n.children.find((c) => c.field === 'descriptor');
  const rawDelim = startNode ? cx.text(startNode) : '';
  const quoted = /['"\\]/.test(rawDelim);
  const delimiter = rawDelim.replace(/['"\\]/g, '');
  const body: Word = bodyNode
    ? quoted
      ? { parts: [{ kind: 'text', value: cx.text(bodyNode), quoting: 'heredoc' }], text: cx.text(bodyNode), range: cx.range(bodyNode) }
      : heredocBody(cx, bodyNode)
    : { parts: [], text: '', range: cx.range(n) };
  // `<<-` strips leading tabs from every body line (and from the delimiter line).
  if (opNode?.type === '<<-') body.parts = stripHeredocTabs(body.parts);
  const heredoc: Heredoc = { delimiter, quoted, body };
  const redirects: Redirect[] = [
    {
      op: (opNode?.type ?? '<<') as RedirectOp,
      fd: fdNode ? Number(cx.text(fdNode)) : null,
      target: null,
      heredoc,
      range: cx.range(startNode ?? n),
    },
  ];
  for (const c of n.children) {
    if (c.field === 'redirect') redirects.push(...cx.redirect(c));
  }
  let wrap: ((cmd: Command) => Command) | null = null;
  const pipeNode = n.children.find((c) => c.type === 'pipeline');
  const opField = n.children.find((c) => c.field === 'operator');
  const right = n.children.find((c) => c.field === 'right');
  if (pipeNode) {
    const rest = pipeNode.children.filter((c) => c.named && c.type !== 'comment').map((c) => cx.statement(c));
    wrap = (cmd) => ({ kind: 'pipeline', commands: [cmd, ...rest], negated: false, range: cx.rangeOf(cmd.range, cx.range(pipeNode)) });
  }
  if (opField && right) {
    const op = opField.type as string;
    const rightCmd = cx.statement(right);
    const inner = wrap;
    if (op === '&&' || op === '||') {
      wrap = (cmd) => ({ kind: 'and-or', op, left: inner ? inner(cmd) : cmd, right: rightCmd, range: cx.rangeOf(cmd.range, rightCmd.range) });
    } else if (op === '|' || op === '|&') {
      wrap = (cmd) => ({ kind: 'pipeline', commands: [inner ? inner(cmd) : cmd, rightCmd], negated: false, range: cx.rangeOf(cmd.range, rightCmd.range) });
    } else {
      wrap = (cmd) => ({
        kind: 'sequence',
        items: [
          { command: inner ? inner(cmd) : cmd, background: op === '&' },
          { command: rightCmd, background: false },
        ],
        range: cx.rangeOf(cmd.range, rightCmd.range),
      });
    }
  }
  return { redirects, wrap };
}

function heredocBody(cx: BuildContext, n: SyntaxNode): Word {
  const parts: WordPart[] = [];
  let pos = n.start;
  const pushText = (to: number) => {
    if (to > pos) parts.push({ kind: 'text', value: unescapeDouble(cx.source.slice(pos, to)), quoting: 'heredoc' });
  };
  for (const c of n.children) {
    if (c.type === 'heredoc_content') continue;
    if (!c.named) continue;
    pushText(c.start);
    parts.push(...expansionPart(cx, c, true));
    pos = c.end;
  }
  pushText(n.end);
  return { parts, text: cx.text(n), range: cx.range(n) };
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
