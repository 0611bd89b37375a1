// The simulator's GET /api/v1/accounts/{idOrAliasOrEvmAddress} (what the daemon resolves aliases with) must
// answer what openapi.yml describes: the 200 body by id, alias and EVM address, and the 400 and 404 bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { sharedPath } from './shared-path.js';
import { createResponseValidator } from './openapi-validator.js';

const PATH = '/api/v1/accounts/{idOrAliasOrEvmAddress}';
const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
const validator = createResponseValidator(sharedPath('ledger-api', 'openapi.yml'));
let sim: RunningSimulator;

beforeAll(async () => {
  const store = new SimulatorStore();
  store.addEntity({ id: 1001n, alias: ALIAS });
  store.addEntity({ id: 1002n, evmAddress: '0x71c7656ec7ab88b098defb751b7401b5f6d8976f' });
  sim = await startSimulator({ store, config: defaultSimulatorConfig() });
});
afterAll(async () => sim.close());

describe('GET /api/v1/accounts/{idOrAliasOrEvmAddress} against openapi.yml', () => {
  it.each([
    ['/api/v1/accounts/0.0.1001', 200],
    [`/api/v1/accounts/${ALIAS}`, 200],
    ['/api/v1/accounts/0x71c7656ec7ab88b098defb751b7401b5f6d8976f?transactions=false', 200],
    ['/api/v1/accounts/bad-path', 400],
    ['/api/v1/accounts/0.0.4242', 404],
  ])('%s answers %i with a body the document allows', async (url, status) => {
    const response = await request(`${sim.url}${url}`);
    const text = await response.body.text();

    expect(response.statusCode).toBe(status);
    expect(validator.validate(PATH, status, text)).toBeNull();
  });
});
