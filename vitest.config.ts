import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores here: each API test file gets its own database; more forks only contend.
    maxWorkers: 2,
    projects: [
      'apps/api/vitest.config.ts',
      'apps/api/vitest.resilience.config.ts',
      'packages/contracts/vitest.config.ts',
      'apps/web/vitest.config.ts',
    ],
  },
});
