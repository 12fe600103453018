import { defineConfig } from 'vitest/config';

// Tests that open pages in the system's Chromium (never downloaded): `npm run test:browser`.
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    env: { ROBOTS_AUDIT_BROWSER_TESTS: '1' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // One browser at a time: the machine's cores are shared.
    fileParallelism: false,
  },
});
