/**
 * One expanded word: what a word of the command line becomes after bash's expansions, with what
 * is known of it. The value type the interpreter hands to command knowledge (src/engine/commands).
 */
import type { Confidence } from '../effects/confidence.js';
import type { Evidence } from '../effects/types.js';

export interface Field {
  /** The expanded text, HOLE where unknown. */
  value: string;
  /** Confidence of the known parts (holes are judged by position later, see holeConfidence). */
  confidence: Confidence;
  evidence: Evidence[];
  /** Contains an unquoted glob character: the real argument(s) depend on the file system. */
  glob: boolean;
  /** The glob may match names starting with `.` (dotglob, GLOBIGNORE, an extglob pattern). */
  dotglob?: boolean;
  /**
   * The text rests on a guess: a variable the script did not set taken as unset (`${X:-}` as
   * empty) or at the value of the analysis' own environment, which is not the analyzed shell's.
   * Good enough to name the likely path of an effect; never enough to decide a condition.
   */
  guessed?: boolean;
}
