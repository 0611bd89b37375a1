import { afterEach, describe, expect, it } from 'vitest';
import { parseInjectBody } from './inject-body.js';
import { startLivingLedger, type RunningLivingLedger } from './living-ledger-server.js';

describe('POST /_sim/inject body', () => {
  let running: RunningLivingLedger | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('accepts every InjectSpec field, amounts as strings or safe integers', () => {
    const text = JSON.stringify({
      type: 'CRYPTOTRANSFER',
      payer: '0.0.1003',
      result: 'SUCCESS',
      transfers: [
        { account: '0.0.1003', amount: '-9000000000000000001' },
        { account: '0.0.1004', amount: 5 },
      ],
      memo: 'hello',
      fee: '100000',
      traceDepth: 3,
      tag: 't',
      wire: { memo_base64: { x: 1 } },
    });

    const spec = parseInjectBody(text);

    expect(spec).toMatchObject({
      payer: '0.0.1003',
      transfers: [{ amount: '-9000000000000000001' }, { amount: 5 }],
    });
  });

  it.each([
    ['{"tranfers": []}', 'unknown field "tranfers"; the fields are type, payer, result, transfers,'],
    [
      '{"transfers": [{"account": "0.0.1", "amount": 1, "token": "0.0.9"}]}',
      'transfers.0: unknown field "token"; the fields are account, amount',
    ],
    ['{"fee": 1.5}', 'fee: '],
    ['{"transfers": [{"account": "0.0.1", "amount": 90000000000000001}]}', 'give the amount as a string'],
    ['{"payer": ', 'not JSON: '],
  ])('refuses %s, saying %j', (text, message) => {
    const problems = parseInjectBody(text);

    expect(Array.isArray(problems) ? problems.join('\n') : 'accepted').toContain(message);
  });

  it('answers 400 with the problem over HTTP and queues nothing', async () => {
    running = await startLivingLedger({ seed: 3, tps: 1, clock: () => 1_800_000_000_000 });

    const res = await fetch(`${running.url}/_sim/inject`, {
      method: 'POST',
      body: JSON.stringify({ payer: '0.0.1003', tag: 'x', amount: 5 }),
    });
    const body = (await res.json()) as { _status: { messages: { message: string }[] } };
    await fetch(`${running.url}/_sim/inject`, {
      method: 'POST',
      body: JSON.stringify({ payer: '0.0.1003', tag: 'y' }),
    });
    const truth = (await (await fetch(`${running.url}/_sim/transactions`)).json()) as {
      meta: { tag?: string }[];
    };

    expect(res.status).toBe(400);
    expect(body._status.messages[0]?.message).toMatch(
      /^Invalid inject body: unknown field "amount"; the fields are/,
    );
    expect(truth.meta.map((m) => m.tag).filter(Boolean)).toEqual(['y']);
  });
});
