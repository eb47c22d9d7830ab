// npm's `prepare`: a clean dist/ (scripts/build.mjs) plus the type declarations of the library
// (tsc -p tsconfig.build.json into dist/types). Needs the dev dependencies (esbuild, typescript).
//
// npm runs `prepare` after `npm install` / `npm ci` in a checkout, for `npm pack` (so the tarball
// ships what this builds), and in a temporary clone when it installs the package from a git URL;
// it then packs that clone (running only `prepare`, not `prepack`) and installs the tarball.
// A GLOBAL install from git (`npm install -g git+URL`) runs the clone's `npm install` with the
// global configuration it inherited, so the clone gets no dependencies at all and esbuild
// cannot be found (npm/cli#8440); installing them from here does not help, because that same
// install then replaces the global one being made (npm/cli#3692). So the build stops with the
// install command that works: `npm pack` of the git URL (a local preparation), then a global
// install of the tarball.
// Everything it prints goes to stderr: `npm pack --silent` prints the tarball's name on stdout, and
// the README's `$(npm pack --silent git+URL)` must capture that name alone.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
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
  const globalGit = process.env.npm_config_global === 'true' && /[\\/]git-clone[^\\/]*$/.test(root);
  console.error(
    globalGit
      ? 'bashguard: `npm install -g git+URL` cannot build bashguard (npm gives the clone no dependencies: npm/cli#8440).\n' +
          'Install with: npm install -g "$(npm pack --silent git+URL)"   (README, Install)'
      : 'bashguard: the build needs the dev dependencies (esbuild, typescript): run `npm ci` (or `npm install`) in this checkout first',
  );
  process.exit(1);
}

// A clean dist/: the chunk names carry content hashes, so old builds would otherwise be packed too.
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: ['ignore', 2, 2] });
console.error('build: dist/types (declarations for dist/api.js)');
