import { defineConfig } from 'vitest/config';

// `npm run conformance`: the upstream spec-test cases and OpenAPI document, read from `../shared/ledger-api`
// beside the clone (as in CI). Not part of `npm test`, which needs nothing outside the repository.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
