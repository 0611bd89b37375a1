import { defineConfig } from 'vitest/config';

// `npm test`: everything the repository holds. The upstream conformance cases need `../shared` beside the clone
// and run on their own (`npm run conformance`, vitest.conformance.config.ts).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/conformance/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
