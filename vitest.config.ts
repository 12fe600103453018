import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/corpus/**',
      'test/scale/**',
      'test/browser/**',
      'test/tools/**',
      'node_modules/**',
      'dist/**',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
