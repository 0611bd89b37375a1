// Token facts end to end on loopback: a real HTTP server answering GET /api/v1/tokens/{id} as the current query
// service does, the real query client (budget, retries), the token facts store and the pipeline's prepare step
// in front of the real rule engine. Alerts show amounts in the token's units; a token the service does not know,
// a hostile answer or a failing service leaves them in raw units, counted and logged once.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { harness, counterValue, type Harness } from '../fixtures/ledger/client-harness.js';
import { sendJson, errorBody } from '../fixtures/ledger/http-server.js';
import { WATCHED, tx } from '../fixtures/rules/records.js';
import { ruleSetFrom } from '../fixtures/rules/rule-set.js';
import { captureLogs } from '../helpers/log-capture.js';
import { createEngine } from '../../src/rules/engine/engine.js';
import { enrichEvent } from '../../src/pipeline/pipeline.js';
import { createCallTraces } from '../../src/enrich/call-trace.js';
import { createContractVerification } from '../../src/enrich/verification.js';
import { createTokenFacts, type TokenFactsStore } from '../../src/tokens/token-facts.js';

const USDC = '0.0.456858';

/** A token body in the service's shape: decimals as a string, keys as objects, members we do not read. */
function tokenBody(id: string, decimals: unknown, symbol: unknown): Record<string, unknown> {
  return {
    token_id: id,
    symbol,
    name: `${String(symbol)} token`,
    decimals,
    type: 'FUNGIBLE_COMMON',
    total_supply: '9223372036854775807',
    max_supply: '0',
    treasury_account_id: '0.0.98',
    admin_key: { _type: 'ED25519', key: '15706b229b3ba33d4a5a41ff54ce1cfe0a3d308672a33ff382f81583e02bd743' },
    supply_key: null,
    pause_status: 'UNPAUSED',
    freeze_default: false,
    custom_fees: { created_timestamp: '1.000000001', fixed_fees: [], fractional_fees: [] },
    memo: 'ignored',
    metadata: '',
  };
}

/** The service: answers per token id, anything else 404 as the real one does. */
const TOKENS: Record<string, (res: ServerResponse) => void> = {
  [USDC]: (res) => sendJson(res, 200, tokenBody(USDC, '5', 'USDC')),
  '0.0.5005': (res) => sendJson(res, 200, tokenBody('0.0.5005', '999', 'EVIL')),
  '0.0.5006': (res) => sendJson(res, 200, tokenBody('0.0.5006', '-1', 'EVIL')),
  '0.0.5007': (res) => sendJson(res, 503, errorBody('Service Unavailable')),
  '0.0.5008': (res) => sendJson(res, 200, tokenBody('0.0.5008', '18', 'WETH')),
};

function drain(tokenId: string, amount: bigint): Transaction {
  return tx({
    token_transfers: [
      { token_id: tokenId, account: WATCHED.id, amount: String(-amount) },
      { token_id: tokenId, account: '0.0.6666', amount: String(amount) },
    ],
  });
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function setup() {
  h = await harness((req, res) => {
    const m = /^\/api\/v1\/tokens\/([^/?]+)$/.exec(req.url ?? '');
    const answer = m ? TOKENS[m[1] ?? ''] : undefined;
    if (answer) answer(res);
    else sendJson(res, 404, errorBody('Not found'));
  });
  const client = h.client;
  const logs = captureLogs();
  const tokens = createTokenFacts({
    fetch: (id, { signal }) => client.getToken(id, signal ? { signal } : {}),
    log: logs.logger,
    metrics: h.metrics,
  });
  return { h, tokens, logs };
}

const RULES = `rules:
  - id: drain
    when: { any: [{ token_debit: { token_id: ${USDC} } }, { token_debit: { token_id: 0.0.5005 } }, { token_debit: { token_id: 0.0.5006 } }, { token_debit: { token_id: 0.0.5007 } }, { token_debit: { token_id: 0.0.5008 } }, { token_debit: { token_id: 0.0.4040 } }] }
    summary: "{{token_amount_text}} of {{token_id}}"
  - id: large-usdc
    when: { token_debit: { token_id: ${USDC}, min: "10000 USDC" } }
    summary: "large {{token_amount_text}}"
`;

async function alertsFor(tokens: TokenFactsStore, record: Transaction) {
  const engine = createEngine(ruleSetFrom(RULES));
  const deps = {
    traces: createCallTraces({ listActions: async function* () {} }),
    verification: createContractVerification({ verify: undefined }),
    tokens,
  };
  const event = await enrichEvent(engine, { source: 'transactions', record, account: WATCHED }, deps);
  return engine.evaluate(event).alerts;
}

describe('token facts from the query service', () => {
  it('shows an alerting amount in the token units, read once and cached', async () => {
    const { tokens, h } = await setup();

    const first = await alertsFor(tokens, drain(USDC, 293_843_768n));
    const second = await alertsFor(tokens, drain(USDC, 1_000_000_000_000n));

    expect(first.map((a) => a.summary)).toEqual([`-2,938.43768 USDC of ${USDC}`]);
    expect(second.map((a) => a.summary).sort()).toEqual([
      `-10,000,000 USDC of ${USDC}`,
      'large -10,000,000 USDC',
    ]);
    expect(h.server.requests.map((r) => r.url)).toEqual([`/api/v1/tokens/${USDC}`]);
    expect(tokens.get(USDC)).toMatchObject({
      decimals: 5,
      symbol: 'USDC',
      totalSupply: 9223372036854775807n,
    });
  });

  it('resolves "10000 USDC" exactly at its threshold through the decimals it read', async () => {
    const { tokens } = await setup();

    const at = await alertsFor(tokens, drain(USDC, 1_000_000_000n));
    const below = await alertsFor(tokens, drain(USDC, 999_999_999n));

    expect(at.map((a) => a.ruleId).sort()).toEqual(['drain', 'large-usdc']);
    expect(below.map((a) => a.ruleId)).toEqual(['drain']);
  });

  it('keeps 18 decimals exact', async () => {
    const { tokens } = await setup();

    const alerts = await alertsFor(tokens, drain('0.0.5008', 1_234_567_890_123_456_789n));

    expect(alerts.map((a) => a.summary)).toEqual(['-1.234567890123456789 WETH of 0.0.5008']);
  });

  it.each([
    ['0.0.4040', 'not_found'],
    ['0.0.5005', 'refused'],
    ['0.0.5006', 'refused'],
    ['0.0.5007', 'error'],
  ])('token %s (%s): the amount stays in raw units, counted and logged once', async (tokenId, reason) => {
    const { tokens, h, logs } = await setup();

    const first = await alertsFor(tokens, drain(tokenId, 293_843_768n));
    const again = await alertsFor(tokens, drain(tokenId, 1n));

    expect(first.map((a) => a.summary)).toEqual([`-293,843,768 units (decimals unknown) of ${tokenId}`]);
    expect(again.map((a) => a.summary)).toEqual([`-1 units (decimals unknown) of ${tokenId}`]);
    expect(await counterValue(h.metrics.tokenFactsFailures, { reason })).toBe(1);
    const warned = logs.entries().filter((e) => e.tokenId === tokenId && e.reason === reason);
    expect(warned).toHaveLength(1);
    expect(tokens.failure(tokenId)).toBe(reason);
  });

  it('reads nothing for a record no rule alerts on', async () => {
    const { tokens, h } = await setup();

    const alerts = await alertsFor(
      tokens,
      tx({ token_transfers: [{ token_id: USDC, account: '0.0.9', amount: '-5' }] }),
    );

    expect(alerts).toEqual([]);
    expect(h.server.requests).toEqual([]);
  });

  it('reads the configured tokens at start and keeps them when tokens met in records exceed the bound', async () => {
    const server = await setup();
    const client = server.h.client;
    const tokens = createTokenFacts({
      fetch: (id, { signal }) => client.getToken(id, signal ? { signal } : {}),
      configured: [USDC],
      maxEntries: 1,
    });

    await tokens.refreshConfigured();
    await tokens.ensure(['0.0.5008']);
    await tokens.ensure(['0.0.5005']);

    expect(tokens.get(USDC)?.symbol).toBe('USDC');
    expect(tokens.get('0.0.5008')).toBeUndefined();
    expect(tokens.get('0.0.5005')).toMatchObject({ decimals: undefined, symbol: 'EVIL' });
  });

  it('shows the configured name with the amount, also for a token the service does not know', async () => {
    const server = await setup();
    const client = server.h.client;
    const names = new Map([
      [USDC, 'treasury-usdc'],
      ['0.0.4040', 'gone'],
    ]);
    const tokens = createTokenFacts({
      fetch: (id) => client.getToken(id),
      configured: [...names.keys()],
      names,
    });

    const known = await alertsFor(tokens, drain(USDC, 293_843_768n));
    const unknown = await alertsFor(tokens, drain('0.0.4040', 7n));

    expect(known.map((a) => a.trigger?.tokens?.[0])).toEqual([
      expect.objectContaining({ decimals: 5, symbol: 'USDC', name: 'treasury-usdc' }),
    ]);
    expect(unknown.map((a) => a.trigger?.tokens?.[0])).toEqual([
      { tokenId: '0.0.4040', amount: '-7', name: 'gone', counterparty: '0.0.6666' },
    ]);
  });
});
