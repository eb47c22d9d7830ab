/**
 * The analysis' record: the effects (writes, git calls, problems), the cwd timeline, the
 * command traces, and the files the script wrote with the text it printed into them. Every
 * piece of the interpreter records through it; `via` is the nesting the current command runs in.
 */
import type { Range } from '../syntax/ir.js';
import { HOLE, type CwdEvent, type Effect, type Evidence, type GitEffect, type WriteEffect, type WriteOp } from '../effects/types.js';
import { weakest, type Confidence } from '../effects/confidence.js';
import type { State } from '../shell/state.js';
import { collapseHoleDots, descriptorOfPath, displayPath, isInside, joinPath, normalizeLogical } from '../shell/paths.js';
import { globsMatchHidden, extglobField } from '../shell/shell-options.js';
import type { WriteOptions } from '../commands/context.js';
import { holeConfidence, type Field } from './expand.js';
import { descriptor } from './redirects.js';

export interface CommandTrace {
  range: Range;
  argv: string[];
  cwd: string[] | null;
  via: string[];
}

export class EffectLog {
  readonly effects: Effect[] = [];
  readonly timeline: CwdEvent[] = [];
  readonly commands: CommandTrace[] = [];
  /**
   * Files this command writes with content it prints itself (`cat > x.sh <<EOF`, `printf ... > f`,
   * `tee f <<EOF`), by normalized absolute path; known false when written some other way.
   */
  readonly writtenFiles = new Map<string, { text: string; known: boolean; printed?: boolean }>();
  /**
   * The nesting the current command runs in (`bash -c`, `eval`, a function). Replaced, never
   * changed in place, so effects and traces share it instead of copying it.
   */
  via: string[] = [];
  /** Set once a program the table does not know ran: file tests no longer read the disk. */
  unknownProgramRan = false;

  /** Whether an effect recorded so far may have created, changed or removed `path`. */
  touched(path: string): boolean {
    return this.mayHaveChanged((e) => e.op !== 'chmod', (known) => isInside(path, known) || isInside(known, path));
  }

  /**
   * Whether an effect recorded so far may have removed, replaced or closed (chmod) the directory
   * `path` or one above it: what entering it needs. A write below it cannot, nor can a mkdir.
   */
  mayHaveMoved(path: string): boolean {
    return this.mayHaveChanged((e) => e.op !== 'mkdir', (known) => isInside(path, known));
  }

  /**
   * Whether a write `counts`, or a git call that writes, named a place `near` says matters (the
   * known directory above an unknown part, which may name anything below it); or whether code ran
   * that the analysis did not read (a program the table does not know, code not known statically,
   * a construct tree-sitter misread), which may have changed anything.
   */
  private mayHaveChanged(counts: (e: WriteEffect) => boolean, near: (known: string) => boolean): boolean {
    if (this.unknownProgramRan) return true;
    const at = (p: string | null) => {
      if (p === null) return true;
      const h = p.indexOf(HOLE);
      return near(normalizeLogical(h < 0 ? p : p.slice(0, p.lastIndexOf('/', h) + 1) || '/'));
    };
    for (const e of this.effects) {
      if (e.kind === 'problem' && (e.category !== 'syntax' || e.misread)) return true;
      if (e.kind === 'write' && counts(e) && at(e.path)) return true;
      if (e.kind === 'git' && e.access !== 'read' && at(e.dir)) return true;
    }
    return false;
  }

  /** Records what a command wrote into a file it names, when known, so running the file later can be analyzed. */
  recordFile(path: string, text: string | null, append: boolean): void {
    const prev = this.writtenFiles.get(path);
    if (text === null || text.includes(HOLE)) this.writtenFiles.set(path, { text: '', known: false, printed: true });
    else if (append) this.writtenFiles.set(path, prev ? { text: prev.text + text, known: prev.known, printed: true } : { text, known: false, printed: true });
    else this.writtenFiles.set(path, { text, known: true, printed: true });
  }

  /** Resolves a path field against the cwd candidates; one effect per candidate. */
  write(
    op: WriteOp,
    field: Field,
    st: State,
    range: Range,
    command: string,
    opts: WriteOptions = {},
  ): void {
    field = extglobField(field, st);
    const value = field.value;
    const text = displayPath(value);
    const cwd = opts.cwdOverride ?? st.cwd;
    const via = this.via;
    const base = (path: string | null, cwdPath: string | null, conf: Confidence, ev: Evidence[]): WriteEffect => ({
      kind: 'write',
      op,
      path,
      text,
      subtree: opts.subtree ?? false,
      confidence: opts.confidenceCap ? weakest(conf, opts.confidenceCap) : conf,
      cwd: cwdPath,
      command,
      via,
      range,
      evidence: [...ev, { range, note: `\`${command}\` ${describeOp(op)} ${text}` }],
      ...(opts.linkTarget !== undefined ? { linkTarget: opts.linkTarget } : {}),
      ...(opts.hardLinkSource !== undefined ? { hardLinkSource: hardLinkSourceOf(opts.hardLinkSource, cwdPath ?? (cwd.paths?.length === 1 ? cwd.paths[0]! : null)) } : {}),
      ...(opts.linkFrom !== undefined ? { linkFrom: hardLinkSourceOf(opts.linkFrom, cwdPath ?? (cwd.paths?.length === 1 ? cwd.paths[0]! : null)) } : {}),
      ...(opts.tree ? { tree: true } : {}),
      ...(opts.replaces ? { replaces: true } : {}),
      ...(field.glob && (field.dotglob || globsMatchHidden(st)) ? { dotglob: true } : {}),
    });
    const descriptorNote: Evidence[] = opts.viaDescriptor ? [{ range, note: `descriptor ${opts.viaDescriptor.fd} was opened on ${opts.viaDescriptor.text}` }] : [];
    const emit = (abs: string, cwdPath: string | null, conf: Confidence, ev: Evidence[]) => {
      // `/dev/stderr`, `/dev/fd/N`: the command's own descriptors, unless it pointed one at a file.
      const fd = abs.includes(HOLE) ? null : descriptorOfPath(abs);
      if (fd !== null) {
        const target = descriptor(st, fd);
        if (!target) return;
        const e = base(target.path, null, weakest(conf, holeConfidence(target.path, false)), [...ev, { range, note: `${displayPath(abs)} is descriptor ${fd}, opened on ${target.text}` }]);
        this.effects.push(e);
        return;
      }
      const p = collapseHoleDots(abs);
      this.effects.push(base(p, cwdPath, p === abs ? conf : 'possible', [...descriptorNote, ...ev]));
      // A file written some other way no longer holds the text recorded for it.
      if (!p.includes(HOLE) && op !== 'chmod' && op !== 'maybe-write') {
        const n = normalizeLogical(p);
        if (op === 'delete' || op === 'mkdir' || op === 'extract') {
          for (const k of [...this.writtenFiles.keys()]) if (isInside(k, n)) this.writtenFiles.delete(k);
        } else if (!(op === 'create' && this.writtenFiles.has(n))) this.writtenFiles.set(n, { text: '', known: false });
      }
    };
    if (value.startsWith('/')) {
      const conf = weakest(field.confidence, holeConfidence(value, field.glob));
      emit(value, null, conf, field.evidence);
      return;
    }
    if (value.startsWith(HOLE) || value === '') {
      this.effects.push(base(null, null, 'possible', [...field.evidence, { range, note: `the path ${text} cannot be resolved statically` }]));
      return;
    }
    if (cwd.paths === null) {
      this.effects.push(base(null, null, 'possible', [...cwd.evidence, { range, note: `the cwd is unknown here, so ${text} cannot be resolved` }]));
      return;
    }
    for (const c of cwd.paths) {
      const abs = joinPath(c, value);
      const conf = weakest(weakest(field.confidence, cwd.confidence), holeConfidence(abs, field.glob));
      const cwdNote = cwd.paths.length > 1 ? [{ range, note: `the cwd is one of ${cwd.paths.map(displayPath).join(', ')} here` }] : [];
      emit(abs, c, conf, [...cwd.evidence, ...cwdNote, ...field.evidence]);
    }
  }

  git(effect: Omit<GitEffect, 'kind' | 'via'>): void {
    this.effects.push({ kind: 'git', ...effect, via: this.via });
  }

  dynamicProblem(reason: string, text: string, range: Range, elsewhere?: true): void {
    this.effects.push({ kind: 'problem', category: 'dynamic', reason, text, range, via: this.via, ...(elsewhere ? { elsewhere } : {}) });
  }

  limitProblem(reason: string, text: string, range: Range): void {
    this.effects.push({ kind: 'problem', category: 'analysis-limit', reason, text, range, via: this.via });
  }

  misreadProblem(reason: string, text: string, range: Range): void {
    this.effects.push({ kind: 'problem', category: 'syntax', misread: true, reason, text, range, via: this.via });
  }

  /**
   * Inline code in another language (python -c, node -e, awk ...) or an unknown program: every
   * absolute path literal it mentions may be written (low confidence; policy drops those inside).
   */
  maybeWrites(code: string, range: Range, command: string, what: string): void {
    const seen = new Set<string>();
    const re = /(?:^|[\s'"`=(,:[{>])(\/(?:[A-Za-z0-9._@+~-][A-Za-z0-9._@+~/-]*)?)/g;
    for (const m of code.matchAll(re)) {
      let p = m[1]!;
      p = p.replace(/[.,;:]+$/, '');
      // `/a/` with nothing after it is a regex literal (sed, perl, ruby, awk), not a path.
      if (p.length < 2 || seen.has(p) || /^\/[^/]+\/$/.test(p)) continue;
      seen.add(p);
      this.effects.push({
        kind: 'write',
        op: 'maybe-write',
        path: p,
        text: p,
        subtree: false,
        confidence: 'possible',
        cwd: null,
        command,
        via: this.via,
        range,
        evidence: [{ range, note: `${what} (\`${command}\`) mentions ${p} and may write it` }],
      });
    }
  }
}

function describeOp(op: WriteOp): string {
  switch (op) {
    case 'write': return 'writes';
    case 'append': return 'appends to';
    case 'create': return 'creates';
    case 'mkdir': return 'creates the directory';
    case 'delete': return 'deletes';
    case 'move': return 'moves into';
    case 'link': return 'creates the link';
    case 'modify': return 'modifies';
    case 'chmod': return 'changes permissions of';
    case 'extract': return 'writes files under';
    case 'maybe-write': return 'may write';
    case 'unknown-command': return 'is given';
  }
}

/** A hard link's source as an absolute path, HOLE where it cannot be known (WriteEffect.hardLinkSource). */
function hardLinkSourceOf(source: string, cwd: string | null): string {
  if (source.startsWith('/')) return source.includes(HOLE) ? HOLE : source;
  return cwd === null || source.includes(HOLE) ? HOLE : joinPath(cwd, source);
}
