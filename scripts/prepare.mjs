// npm's `prepare`: a clean dist/ (scripts/build.mjs) plus the type declarations of the library
// (tsc -p tsconfig.build.json into dist/types). Needs the dev dependencies (esbuild, typescript).
//
// npm runs `prepare` after `npm install` / `npm ci` in a checkout, for `npm pack` (so the tarball
// ships what this builds), and in a temporary clone when it installs the package from a git URL;
// it then packs that clone (running only `prepare`, not `prepack`) and installs the tarball. A GLOBAL install from git (`npm install -g git+URL`) runs the clone's `npm install`
// with the global configuration it inherited, so the clone gets no dependencies at all and esbuild
// cannot be found (npm/cli#8440). Here, when the dev dependencies are missing in that situation,
// they are installed into the clone first (a plain local install, scripts off), then the build runs.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

function resolvable(name) {
  try {
    require.resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

if (!resolvable('esbuild') || !resolvable('typescript')) {
  // A git dependency being prepared: npm says so through npm_config_* variables (npm_command is
  // `install`), and the clone lives in npm's cache. Anywhere else a missing esbuild is an
  // incomplete `npm install`, and we say so instead of installing behind someone's back.
  const inNpmInstall = process.env.npm_command === 'install' || process.env.npm_command === 'ci' || process.env.npm_command === 'pack';
  if (!inNpmInstall || existsSync(join(root, 'node_modules', '.package-lock.json'))) {
    console.error('bashguard: the build needs the dev dependencies (esbuild, typescript): run `npm ci` (or `npm install`) in this checkout first');
    process.exit(1);
  }
  console.error('bashguard: installing the build tools into this clone (npm/cli#8440: a global install from git prepares it without them)');
  const env = {};
  // Drop what the global install passed down (global, prefix, location, ...): this install is local.
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_(config|package|lifecycle)_/i.test(k) && k !== 'npm_command') env[k] = v;
  for (const k of ['cache', 'registry', 'userconfig']) if (process.env[`npm_config_${k}`]) env[`npm_config_${k}`] = process.env[`npm_config_${k}`];
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm && npm.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  execFileSync(cmd, [...args, 'install', '--no-save', '--ignore-scripts', '--include=dev', '--global=false', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
}

// A clean dist/: the chunk names carry content hashes, so old builds would otherwise be packed too.
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
console.log('build: dist/types (declarations for dist/api.js)');
