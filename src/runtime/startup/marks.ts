/**
 * Stage marks for the hook's start-up profile (bench/hook-stages.cjs, docs/history/performance.md "Where the
 * hook's milliseconds go"). Off unless BASHGUARD_HOOK_STAGES is set in the hook's environment:
 * then each `mark` records a monotonic time, and `stagesLine` gives the milliseconds between
 * consecutive marks, for the bench to read from stderr. Costs one property read when off.
 */
const on = process.env.BASHGUARD_HOOK_STAGES !== undefined && process.env.BASHGUARD_HOOK_STAGES !== '';
const marks: Array<[string, bigint]> = [];

export function mark(label: string): void {
  if (on) marks.push([label, process.hrtime.bigint()]);
}

/** `bashguard stages: a=0.12 b=3.40 ...` (ms from the previous mark), or null when off. */
export function stagesLine(): string | null {
  if (!on || marks.length < 2) return null;
  const parts: string[] = [];
  for (let i = 1; i < marks.length; i++) parts.push(`${marks[i]![0]}=${(Number(marks[i]![1] - marks[i - 1]![1]) / 1e6).toFixed(2)}`);
  return `bashguard stages: ${parts.join(' ')}\n`;
}
