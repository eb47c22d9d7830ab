import { defineConfig } from 'vitest/config';

// Three projects.
// - unit: test/unit/, mirroring src/; no test there starts a process (test/helpers/no-spawn.ts
//   makes child_process throw), so `npx vitest --project unit` is the fast inner loop.
// - system: everything else but the slow suites below: the CLI, the hook, lint's workers, git.
// - full: the suites that drive real agent clients (test/system/e2e/*.e2e.test.ts) and the whole
//   execution oracle over the corpus (test/system/oracle/oracle-corpus.test.ts): minutes each.
// `npm test` runs unit and system (the contributor's loop); `npm run test:full` runs full, and
// .ci/run runs both.
const FULL = ['test/system/e2e/**/*.e2e.test.ts', 'test/system/oracle/oracle-corpus.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: ['test/helpers/no-spawn.ts'] } },
      { extends: true, test: { name: 'system', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', '**/node_modules/**', ...FULL] } },
      { extends: true, test: { name: 'full', include: FULL } },
    ],
  },
});
