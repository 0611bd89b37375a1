// The account resolver with the real ledger client against the simulator: alias and EVM address resolved,
// 404 left pending with a log line naming the config entry, the cache answering when the service fails, and a
// body for another account refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../ledger/client.js';
import { createMetrics } from '../../observability/metrics.js';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { AccountsConfig, watchedAccounts } from '../../accounts/accounts-config.js';
import { openStateStore } from '../../state/store.js';
import { createAccountResolver, type AccountLookup } from './account-resolver.js';
import { createResolvedAccountsRepo } from './resolved-accounts-repo.js';

const ALIAS = 'HIQQEXWKW53RKN4W6XXC4Q232SYNZ3SZANVZZSUME5B5PRGXL663UAQA';
const UNKNOWN = 'KGNABD5L3ZGSRVUCSPDR7TONZSRY3D5OMEBKQMVTD2AC6JL72HMQ';
const EVM = '0x71c7656ec7ab88b098defb751b7401b5f6d8976f';

let sim: RunningSimulator | undefined;
let client: LedgerClient | undefined;
afterEach(async () => {
  await client?.close();
  await sim?.close();
});

async function setup() {
  const store = new SimulatorStore();
  store.addEntity({ id: 1001n, alias: ALIAS });
  store.addEntity({ id: 1002n, evmAddress: EVM });
  sim = await startSimulator({ store, config: defaultSimulatorConfig({ bindTimestampRange: false }) });
  client = createLedgerClient({ baseUrl: sim.url, retry: { maxAttempts: 1 } });
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const metrics = createMetrics({ registry: new Registry() });
  const resolver = createAccountResolver({ log, metrics });
  const c = client;
  const lookup: AccountLookup = (ref, signal) => c.getAccount(ref, { signal });
  return { store, lines, metrics, resolver, lookup };
}

const ACCOUNTS = watchedAccounts(
  AccountsConfig.parse([
    { id: '0.0.7', name: 'local' },
    { id: ALIAS, name: 'by-alias' },
    { id: EVM, name: 'by-evm', sources: ['transactions'] },
    { id: UNKNOWN, name: 'not-yet' },
  ]),
);
const signal = new AbortController().signal;

describe('account resolver', () => {
  it('resolves aliases and EVM addresses to ids and leaves an unknown one pending, naming its entry', async () => {
    const { resolver, lookup, lines, metrics } = await setup();

    const result = await resolver.resolve(ACCOUNTS, { lookup, refresh: true, signal });

    expect(result.accounts.map((a) => [a.name, a.id, a.rewardsPath])).toEqual([
      ['local', '0.0.7', '0.0.7'],
      ['by-alias', '0.0.1001', '0.0.1001'],
      ['by-evm', '0.0.1002', '0.0.1002'],
    ]);
    expect(result.accounts[2]?.sources).toEqual(['transactions']);
    expect(result.pending.map((a) => a.name)).toEqual(['not-yet']);
    const warning = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.level === 40);
    expect(warning).toMatchObject({
      msg: 'configured account not known to the query service',
      entry: 'accounts[3].id',
      lookup: UNKNOWN,
    });
    expect(await metrics.registry.getSingleMetricAsString('ledger_sentinel_accounts_unresolved')).toContain(
      'ledger_sentinel_accounts_unresolved 1',
    );
  });

  it('resolves a pending account once the service knows it', async () => {
    const { resolver, lookup, store } = await setup();
    await resolver.resolve(ACCOUNTS, { lookup, refresh: true, signal });

    store.addEntity({ id: 1009n, alias: UNKNOWN });
    const result = await resolver.resolve(ACCOUNTS, { lookup, refresh: false, signal });

    expect(result.pending).toEqual([]);
    expect(result.accounts.find((a) => a.name === 'not-yet')?.id).toBe('0.0.1009');
  });

  it('answers from its cache when the service is down, and asks again only on refresh', async () => {
    const { resolver, lookup } = await setup();
    await resolver.resolve(ACCOUNTS, { lookup, refresh: true, signal });
    const asked: string[] = [];
    const down: AccountLookup = (ref) => {
      asked.push(ref);
      return Promise.reject(new Error('connection refused'));
    };

    const cached = await resolver.resolve(ACCOUNTS, { lookup: down, refresh: false, signal });
    const refreshed = await resolver.resolve(ACCOUNTS, { lookup: down, refresh: true, signal });

    expect(asked.filter((r) => r !== UNKNOWN)).toHaveLength(2);
    for (const result of [cached, refreshed])
      expect(result.accounts.map((a) => a.id)).toEqual(['0.0.7', '0.0.1001', '0.0.1002']);
  });

  it('refuses an account id out of range, and writes a resolved id canonically', async () => {
    const { resolver } = await setup();
    const answer =
      (account: string): AccountLookup =>
      () =>
        Promise.resolve({ account, alias: ALIAS, evm_address: EVM });
    const only = ACCOUNTS.slice(1, 3);

    const huge = await resolver.resolve(only, { lookup: answer('0.70000.1'), refresh: true, signal });
    const padded = await resolver.resolve(only, { lookup: answer('0.0.0042'), refresh: true, signal });

    expect(huge.accounts).toEqual([]);
    expect(padded.accounts.map((a) => a.id)).toEqual(['0.0.42', '0.0.42']);
  });

  it('refuses a body that names another account than the one asked for', async () => {
    const { resolver } = await setup();
    const liar: AccountLookup = () => Promise.resolve({ account: '0.0.66', alias: null, evm_address: EVM });

    const result = await resolver.resolve(ACCOUNTS, { lookup: liar, refresh: true, signal });

    expect(result.accounts.map((a) => a.name)).toEqual(['local', 'by-evm']);
    expect(result.pending.map((a) => a.name)).toEqual(['by-alias', 'not-yet']);
  });
});

describe('resolved ids in the state store', () => {
  it('lets a restart while the service is down tail what an earlier run resolved', async () => {
    const { lookup } = await setup();
    const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-resolved-'));
    const deps = { log: pino({ level: 'silent' }), metrics: createMetrics({ registry: new Registry() }) };
    const down: AccountLookup = () => Promise.reject(new Error('connection refused'));
    const first = openStateStore({ dir });
    await createAccountResolver({ ...deps, persisted: createResolvedAccountsRepo(first) }).resolve(ACCOUNTS, {
      lookup,
      refresh: true,
      signal,
    });
    first.close();

    const second = openStateStore({ dir });
    const restarted = createAccountResolver({ ...deps, persisted: createResolvedAccountsRepo(second) });
    const result = await restarted.resolve(ACCOUNTS, { lookup: down, refresh: true, signal });
    second.close();
    rmSync(dir, { recursive: true, force: true });

    expect(result.accounts.map((a) => a.id)).toEqual(['0.0.7', '0.0.1001', '0.0.1002']);
    expect(result.pending.map((a) => a.name)).toEqual(['not-yet']);
  });
});

describe('client.getAccount', () => {
  it('reads the account by id, alias and EVM address, and null for an unknown one', async () => {
    await setup();
    const c = client as LedgerClient;

    const found = await Promise.all([c.getAccount('0.0.1001'), c.getAccount(ALIAS), c.getAccount(EVM)]);
    const missing = await c.getAccount(UNKNOWN);

    expect(found.map((a) => a?.account)).toEqual(['0.0.1001', '0.0.1001', '0.0.1002']);
    expect(found[1]?.alias).toBe(ALIAS);
    expect(found[2]?.evm_address).toBe(EVM);
    expect(missing).toBeNull();
  });

  it('refuses a path that is no account reference before sending anything', async () => {
    await setup();

    await expect((client as LedgerClient).getAccount('treasury')).rejects.toThrow(
      /Invalid parameter: idOrAliasOrEvmAddress/,
    );
  });
});
