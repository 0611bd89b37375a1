import { defineConfig } from 'vitest/config';

// `npm test`: everything the repository holds. The upstream conformance cases need `../shared` beside the clone
// and run on their own (`npm run conformance`, vitest.conformance.config.ts).
// The workspace packages (packages/*) are read from their TypeScript sources (their exports' "source"
// condition, as tsconfig.json's customConditions and `node --conditions=source --import tsx`), so a test never
// runs a stale build. The rest are Vite's default server conditions.
const conditions = ['source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/conformance/**', '**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two test files at a time. vitest's default is one worker fewer than the cores, which on the 2-core CI
    // machines is one: the files ran one after another while most of them wait on child processes, servers and
    // timers rather than the CPU. No test asserts a duration, so a second file at once changes no result.
    maxWorkers: 2,
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
