#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node 20's ESM loader costs several ms per process, and
// the hook is a fresh process on every tool call. `bashguard hook` goes straight to the hook's
// single-file bundle; everything else loads the ESM CLI.
'use strict';

const argv = process.argv.slice(2);
// `hook [--exit-code] [--agent NAME]` (same test as fastHookArgs in src/cli/main.ts).
const fastHook = argv[0] === 'hook' && argv.slice(1).every((a, i, rest) => a === '--exit-code' || a.startsWith('--agent=') || a === '--agent' || rest[i - 1] === '--agent');
if (fastHook) {
  // Through the V8 code cache of the hook bundle (src/startup/code-cache.ts).
  require('../dist/hook-start.cjs').startHook();
} else if (argv[0] === 'lint') {
  // The CLI as one CommonJS bundle through its code cache (src/lint/cli-start.ts).
  require('../dist/lint-start.cjs').startLint();
} else {
  import('../dist/bashguard.js').then((m) => m.main());
}
