import { defineConfig } from 'vitest/config';

// Tests that run other programs on this machine (Debian's GNU Wget writing WARC files): `npm run test:tools`.
export default defineConfig({
  test: {
    include: ['test/tools/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
