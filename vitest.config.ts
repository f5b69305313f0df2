import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: forks keep native better-sqlite3 handles per process.
    pool: 'forks',
  },
});
