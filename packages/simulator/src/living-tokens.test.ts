// The living ledger's tokens and balances: what it serves for an account and a token is genesis plus the legs of
// the records it generated, so a client that reconciles balances from the transactions it reads agrees exactly.
import { describe, expect, it } from 'vitest';
import { parseSpecJson } from './fixture-values.js';
import { createLivingLedger } from './living-ledger.js';
import { GENESIS_HBAR, GENESIS_TOKEN_SHARE } from './living-tokens.js';
import type { GeneratedRecord } from './generated-record.js';
import { createSimulatorServer } from './server.js';
import type { ServedBody } from './routes/served-body.js';

type Body = ServedBody;

const T0 = 1_700_000_000_000;

function run(seconds: number) {
  let now = T0;
  const ledger = createLivingLedger({ seed: 'tokens', tps: 50, clock: () => now, retention: null });
  const records: GeneratedRecord[] = [];
  for (let s = 0; s < seconds; s += 10) {
    now += 10_000;
    records.push(...ledger.advance());
  }
  const server = createSimulatorServer({ store: ledger.store });
  const get = async (url: string) => parseSpecJson(String((await server.dispatch('GET', url)).body)) as Body;
  return { ledger, records, get };
}

describe('living ledger tokens and balances', () => {
  it('serves every population account its genesis HBAR plus the sum of its record legs', async () => {
    const { ledger, records, get } = run(60);
    const accounts = ledger.traffic.population.accounts.slice(0, 5).map((a) => BigInt(a.num));
    for (const account of accounts) {
      let sum = GENESIS_HBAR;
      for (const { tx } of records)
        for (const leg of tx.transfers) if (leg.account === account) sum += leg.amount;
      const body = await get(`/api/v1/accounts/${account}?transactions=false`);
      expect(body.balance).toMatchObject({ balance: sum });
    }
  });

  it('moves a fungible token’s holdings and total supply with its successful records', async () => {
    const { ledger, records, get } = run(120);
    const token = BigInt(ledger.traffic.population.tokens[0] as number);
    let supplyDelta = 0n;
    const held = new Map<bigint, bigint>();
    for (const { tx } of records) {
      if (tx.result !== 22) continue;
      for (const leg of tx.tokenTransfers) {
        if (leg.tokenId !== token) continue;
        supplyDelta += leg.amount;
        held.set(leg.account, (held.get(leg.account) ?? 0n) + leg.amount);
      }
    }
    const info = await get(`/api/v1/tokens/${token}`);
    expect(BigInt(info.total_supply)).toBe(BigInt(info.initial_supply) + supplyDelta);
    expect(info.treasury_account_id).toBe('0.0.2');
    expect(info.supply_key._type).toBe('ED25519');
    const holder = ledger.traffic.population.accounts[0]?.num as number;
    const page = await get(`/api/v1/tokens/${token}/balances?account.id=${holder}`);
    expect(page.balances).toEqual([
      {
        account: `0.0.${holder}`,
        balance: GENESIS_TOKEN_SHARE + (held.get(BigInt(holder)) ?? 0n),
        decimals: BigInt(info.decimals),
      },
    ]);
  });

  it('takes balance snapshots that /balances?timestamp reads', async () => {
    const { get } = run(10);
    const body = await get(`/api/v1/balances?timestamp=${(T0 + 10_000) / 1000}&account.id=2`);
    expect(body.balances).toEqual([expect.objectContaining({ account: '0.0.2' })]);
    expect(body.timestamp).not.toBeNull();
  });
});
