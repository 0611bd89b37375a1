import { defineConfig } from 'vitest/config';

// `npm run conformance`: the upstream spec-test cases and OpenAPI document, read from `../shared/ledger-api`
// beside the clone (as in CI). Not part of `npm test`, which needs nothing outside the repository.
// The workspace packages (packages/*) are read from their TypeScript sources (their exports' "source"
// condition, as tsconfig.json's customConditions and `node --conditions=source --import tsx`), so a test never
// runs a stale build. The rest are Vite's default server conditions.
const conditions = ['source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/conformance/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
