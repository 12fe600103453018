import { defineConfig } from 'vitest/config';

// Sweeps over ../shared/corpus: run by `npm run test:corpus` and by .ci/run, not by `npm test`.
export default defineConfig({
  test: {
    include: ['test/corpus/**/*.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
