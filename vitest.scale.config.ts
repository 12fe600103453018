import { defineConfig } from 'vitest/config';

// Scaling runs in distinct origins (minutes, both cores): `npm run test:scale` and .ci/run, not `npm test`.
export default defineConfig({
  test: {
    include: ['test/scale/**/*.test.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
