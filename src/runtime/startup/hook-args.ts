/**
 * `hook [--exit-code] [--agent NAME] [--keep-event TOKEN] [--time-limit SECONDS] [--unsupervised]` (the hook's fast path, without
 * commander), or null. Anything else, an unknown agent included, goes through the full program
 * (which reports usage errors). One test for every entry: bin/bashguard.js asks the start entry
 * (src/runtime/startup/hook-start.ts), which carries this module (it has no imports), and src/frontends/cli/hook-main.ts.
 */
export function fastHookArgs(argv: string[]): { exitCode: boolean; agent: string; keepEvent?: string; timeLimit?: string; unsupervised?: true } | null {
  if (argv[0] !== 'hook') return null;
  let exitCode = false;
  let agent = 'claude';
  let keepEvent: string | undefined;
  let timeLimit: string | undefined;
  let unsupervised = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--exit-code') exitCode = true;
    else if (a === '--agent' && i + 1 < argv.length) agent = argv[++i]!;
    else if (a.startsWith('--agent=')) agent = a.slice('--agent='.length);
    else if (a === '--keep-event' && i + 1 < argv.length) keepEvent = argv[++i]!;
    else if (a === '--time-limit' && i + 1 < argv.length) timeLimit = argv[++i]!;
    else if (a === '--unsupervised') unsupervised = true;
    else return null;
  }
  return { exitCode, agent, ...(keepEvent === undefined ? {} : { keepEvent }), ...(timeLimit === undefined ? {} : { timeLimit }), ...(unsupervised ? { unsupervised } : {}) };
}
