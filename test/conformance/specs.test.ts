// Runs every upstream spec-test case of the 0.129 line against the simulator over real HTTP (spec-runner.ts:
// a fresh store per URL, status and body compared exactly, 2xx headers, every response checked against
// openapi.yml). The same code must pass spec files it has never seen: nothing here knows a file by name.
import { describe, expect, it } from 'vitest';
import { sharedPath } from './shared-path.js';
import { discoverSpecFiles, loadSpecCases } from './spec-cases.js';
import { specRunner } from './spec-runner.js';

const SPECS_ROOT = sharedPath('ledger-api', 'specs');
const cases = discoverSpecFiles(SPECS_ROOT).flatMap((file) => loadSpecCases(SPECS_ROOT, file));
const check = specRunner({
  label: '0.129',
  cases,
  openapiPath: sharedPath('ledger-api', 'openapi.yml'),
  openapiPaths: [
    [/^\/api\/v1\/transactions\/?$/, '/api/v1/transactions'],
    [/^\/api\/v1\/accounts\/[^/]+\/rewards\/?$/, '/api/v1/accounts/{idOrAliasOrEvmAddress}/rewards'],
    [
      /^\/api\/v1\/contracts\/results\/[^/]+\/actions\/?$/,
      '/api/v1/contracts/results/{transactionIdOrHash}/actions',
    ],
  ],
});

describe('upstream spec tests', () => {
  it('discovers the spec files by walking the folder', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, specCase) => check(specCase));
});
