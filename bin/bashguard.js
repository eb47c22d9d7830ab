#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node 20's ESM loader costs several ms per process, and
// the hook is a fresh process on every tool call. `bashguard hook` goes straight to the hook's
// single-file bundle; everything else loads the ESM CLI.
'use strict';

const argv = process.argv.slice(2);
if (argv[0] === 'hook' && argv.every((a) => a === 'hook' || a === '--exit-code')) {
  // Through the V8 code cache of the hook bundle (src/startup/code-cache.ts).
  require('../dist/hook-start.cjs').startHook();
} else {
  import('../dist/bashguard.js').then((m) => m.main());
}
