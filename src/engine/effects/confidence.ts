/**
 * How sure bashguard is about a predicted effect. Defined once here and documented in README.md.
 * - certain:  every part of the path is literal (or a variable from the hook's own environment,
 *             such as HOME) and the cwd is known;
 * - likely:   depends on something the command itself established: a variable assigned in it,
 *             a cwd after branches that agree, a `${X:-/path}` default, a glob or unknown name
 *             inside a directory that is known;
 * - possible: depends on something unknown: an unset variable, a command substitution, eval of a
 *             non-literal, inline code in another language.
 */
export type Confidence = 'certain' | 'likely' | 'possible';

export const CONFIDENCES: readonly Confidence[] = ['certain', 'likely', 'possible'];

const rank: Record<Confidence, number> = { certain: 2, likely: 1, possible: 0 };

/** The weaker of two confidences. */
export function weakest(a: Confidence, b: Confidence): Confidence {
  return rank[a] <= rank[b] ? a : b;
}

