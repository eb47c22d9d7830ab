#!/usr/bin/env node
// CommonJS on purpose (bin/package.json): Node 20's ESM loader costs several ms per process, and
// the hook is a fresh process on every tool call. `bashguard hook` goes straight to the hook's
// single-file bundle; everything else loads the ESM CLI.
'use strict';

const argv = process.argv.slice(2);
// `hook [--exit-code] [--agent NAME] [--keep-event TOKEN]` (src/runtime/startup/hook-args.ts, which the start
// entry carries): through the V8 code cache of the hook bundle (src/runtime/startup/code-cache.ts).
const hookStart = argv[0] === 'hook' ? loadStart('hook-start.cjs') : null;
if (hookStart && hookStart.isFastHook(argv)) {
  hookStart.startHook();
} else if (argv[0] === 'lint') {
  // The CLI as one CommonJS bundle through its code cache (src/frontends/lint/cli-start.ts).
  loadStart('lint-start.cjs').startLint();
} else {
  import('../dist/bashguard.js').then((m) => m.main());
}

/**
 * dist/<name>, a small CommonJS start entry, loaded like `require` would but without its
 * resolution: the path is known, absolute and normalized (this file's directory is already a real
 * path). require's path.resolve and realpath of a second module were ~1 ms per hook process, and
 * on Node 24 enough calls of Node's path code to start a Maglev job (+1.9 MB peak RSS).
 */
function loadStart(name) {
  if (process.platform === 'win32') return require(`../dist/${name}`);
  const dist = __dirname.slice(0, __dirname.lastIndexOf('/')) + '/dist';
  const file = `${dist}/${name}`;
  const params = ['exports', 'require', 'module', '__filename', '__dirname'];
  const fn = require('node:vm').compileFunction(require('node:fs').readFileSync(file, 'utf8'), params, { filename: file });
  const mod = { exports: {} };
  fn.call(mod.exports, mod.exports, require, mod, file, dist);
  return mod.exports;
}
