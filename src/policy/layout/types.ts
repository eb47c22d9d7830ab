/**
 * The worktree layout around a directory, found by reading git's own files (no git subprocess).
 * Policy turns effects into findings against this.
 */
export type CheckoutKind =
  /** A linked worktree (`.git` is a file pointing at `<common>/worktrees/<name>`). */
  | 'linked-worktree'
  /** The main working tree of a repository that has linked worktrees or not. */
  | 'main'
  /** A bare repository's common dir (no work tree of its own). */
  | 'bare';

export interface Checkout {
  kind: CheckoutKind;
  /** Work tree root, realpath'd. null for a bare repository. */
  root: string | null;
  /** This checkout's git dir: `<root>/.git` for main, `<common>/worktrees/<name>` for linked. realpath'd. */
  gitDir: string;
  /** The shared git dir (objects, refs, config, hooks). realpath'd. */
  commonDir: string;
  /** The admin name under `<common>/worktrees/`, for linked worktrees. */
  name: string | null;
}

export interface Layout {
  /** The checkout containing the directory we were asked about. */
  current: Checkout;
  /** The main checkout of the same repository (may equal `current`); null when the common dir is bare. */
  main: Checkout | null;
  /** Every other linked worktree of the repository (not `current`, not `main`). Includes prunable ones whose dir is gone. */
  siblings: Checkout[];
}

/** Result of discovery: a layout, or why there is none (not a checkout, unreadable files). */
export type DiscoveryResult =
  | { ok: true; layout: Layout }
  | { ok: false; reason: 'not-a-checkout' | 'unreadable'; message: string };
