// Runs the current line's upstream spec cases for the token and balance endpoints (tokens/{id},
// tokens/{id}/balances, balances, accounts/{id}) against the simulator in the current service shape, with the
// same checks as the 0.129 cases (spec-runner.ts) against the current line's openapi.yml. Nothing here knows a
// file by name.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedPath } from './shared-path.js';
import { discoverSpecFiles, loadSpecCases } from './spec-cases.js';
import { specRunner } from './spec-runner.js';

const ROOT = sharedPath('ledger-api', 'current', 'specs');
/** The spec folders of these endpoints; a folder's sub-folders (other endpoints) are not walked into. */
const FOLDERS: ReadonlyArray<readonly [string, RegExp]> = [
  ['tokens/{id}', /^tokens\/\{id\}\/[^/]+\.json$/],
  ['tokens/{id}/balances', /^tokens\/\{id\}\/balances\/[^/]+\.json$/],
  ['balances', /^balances\/[^/]+\.json$/],
  ['accounts/{id}', /^accounts\/\{id\}\/[^/]+\.json$/],
];
const cases = FOLDERS.flatMap(([folder, only]) =>
  discoverSpecFiles(join(ROOT, folder))
    .flatMap((file) => loadSpecCases(ROOT, file))
    .filter((c) => only.test(c.file)),
);
const check = specRunner({
  label: 'tokens, balances, accounts',
  cases,
  openapiPath: sharedPath('ledger-api', 'current', 'openapi.yml'),
  serviceVersion: 'current',
  openapiPaths: [
    [/^\/api\/v1\/tokens\/[^/]+\/balances\/?$/, '/api/v1/tokens/{tokenId}/balances'],
    [/^\/api\/v1\/tokens\/[^/]+\/?$/, '/api/v1/tokens/{tokenId}'],
    [/^\/api\/v1\/balances\/?$/, '/api/v1/balances'],
    [/^\/api\/v1\/accounts\/[^/]+\/?$/, '/api/v1/accounts/{idOrAliasOrEvmAddress}'],
  ],
});

describe('upstream spec tests of the current line: tokens and balances', () => {
  it('discovers the spec files by walking the folders', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, specCase) => check(specCase));
});
