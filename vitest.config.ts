import { defineConfig } from 'vitest/config';

// Two projects; `npm test` (vitest run) runs both.
// - unit: test/unit/, mirroring src/; no test there starts a process (test/helpers/no-spawn.ts
//   makes child_process throw), so `npx vitest --project unit` is the fast inner loop.
// - system: everything else: the CLI, the hook, lint's workers, git, real agent clients, the oracle.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: ['test/helpers/no-spawn.ts'] } },
      { extends: true, test: { name: 'system', include: ['test/**/*.test.ts'], exclude: ['test/unit/**', '**/node_modules/**'] } },
    ],
  },
});
