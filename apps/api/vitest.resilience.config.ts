import { defineProject } from 'vitest/config';

/**
 * Outage tests: the real server as a child process on its own throwaway PostgreSQL cluster.
 * A project of their own so they run once per `npm test` (the api project runs twice: PGlite,
 * then PostgreSQL) and need neither the api project's template database nor TEST_DATABASE_URL.
 */
export default defineProject({
  test: {
    name: 'resilience',
    environment: 'node',
    include: ['test/resilience/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
