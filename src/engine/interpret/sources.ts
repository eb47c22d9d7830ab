/**
 * Which text the interpreter is reading: the analyzed script, a sourced file, an `eval`'s or a
 * `bash -c`'s code, an alias's expansion. Ranges are relative to their own text, so effects of
 * code reached from another text are reported at the command that led there (the site), and,
 * when that code is a file, keep where they are in it (Effect#origin).
 */
import type { Range } from '../syntax/ir.js';
import type { Effect } from '../effects/types.js';
import type { SourceLine } from '../shell/extras.js';

export interface SourceRef {
  id: number;
  text: string;
  /** The file the text is, when it is one (the analyzed script, a sourced file). */
  file: string | null;
}

/** A command that led into other code: its range in `from`'s text. */
export interface Site {
  range: Range;
  note: string;
  from: SourceRef;
}

export class Sources {
  /** The source being analyzed (for aliases, which bash expands on the lines it reads later). */
  current: SourceRef = { id: 0, text: '', file: null };
  /** The commands of enclosing files that led to the code now analyzed (`source lib.sh`, a call of f). */
  sites: Site[] = [];
  private mainId = -1;
  private nextId = 1;

  /** The analyzed text itself. */
  start(text: string, file: string | null): void {
    this.current = this.make(text, file);
    this.mainId = this.current.id;
  }

  make(text: string, file: string | null): SourceRef {
    return { id: this.nextId++, text, file };
  }

  isMain(ref: SourceRef = this.current): boolean {
    return ref.id === this.mainId;
  }

  line(range: Range): SourceLine {
    return { source: this.current.id, line: range.line };
  }

  /** Runs `body` reading `inner`, reached through `sites`; the current text and sites come back after. */
  within(inner: SourceRef, sites: Site[], body: () => void): void {
    const savedSource = this.current;
    const savedSites = this.sites;
    this.current = inner;
    this.sites = sites;
    try {
      body();
    } finally {
      this.current = savedSource;
      this.sites = savedSites;
    }
  }

  /**
   * Effects from `start` on came from code of `inner`'s text, reached from the current source at
   * `site`: they are reported at the site, and, when `inner` is a file, keep where they are there.
   */
  crossed(effects: Effect[], start: number, inner: SourceRef, site: Site): void {
    for (let i = start; i < effects.length; i++) {
      const e = effects[i]!;
      if (!e.origin && inner.file !== null && inner.file !== this.current.file) e.origin = { file: inner.file, range: e.range, chain: [] };
      if (e.origin) e.origin.chain.unshift({ file: this.current.file, line: site.range.line, note: site.note });
      relocate(e, site.range);
    }
  }

  /** `crossed` as seen from `from`'s text (the outermost file's view of a definition's sites). */
  crossedFrom(from: SourceRef, effects: Effect[], start: number, inner: SourceRef, site: Site): void {
    const saved = this.current;
    this.current = from;
    this.crossed(effects, start, inner, site);
    this.current = saved;
  }
}

function relocate(e: Effect, range: Range): void {
  e.range = range;
  if (e.kind !== 'problem') e.evidence = e.evidence.map((ev) => ({ ...ev, range }));
}
