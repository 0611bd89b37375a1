import { describe, expect, it } from 'vitest';
import { actionsIdFor, createCallTraces, type ListActions } from './call-trace.js';
import { action, tx } from '../../test/fixtures/rules/records.js';
import type { ContractAction } from '@ledger-sentinel/ledger-model/schema';

/** A listActions over fixed pages that records every call (a real async iterable, no mocks). */
function pagedActions(pages: ContractAction[][], failFirst = false) {
  const calls: string[] = [];
  const listActions: ListActions = async function* (idOrHash) {
    calls.push(idOrHash);
    if (failFirst && calls.length === 1) throw new Error('503 from the service');
    for (const records of pages) yield { records };
  };
  return { listActions, calls };
}

describe('call traces', () => {
  it('collects every page and reports the deepest call', async () => {
    const { listActions } = pagedActions([
      [action({ index: 0 }), action({ index: 1, call_depth: 2 })],
      [action({ index: 2, call_depth: 6 })],
    ]);
    const traces = createCallTraces({ listActions });

    const trace = await traces.get('0.0.1001-1700000000-000000000');

    expect([trace.actions.map((a) => a.index), trace.maxDepth]).toEqual([[0, 1, 2], 6]);
  });

  it('fetches a transaction once while it is cached, and again once evicted', async () => {
    const { listActions, calls } = pagedActions([[action()]]);
    const traces = createCallTraces({ listActions, maxEntries: 1 });

    await traces.get('a');
    await traces.get('a');
    await traces.get('b');
    await traces.get('a');

    expect(calls).toEqual(['a', 'b', 'a']);
  });

  it('does not cache a failed fetch', async () => {
    const { listActions, calls } = pagedActions([[action()]], true);
    const traces = createCallTraces({ listActions });

    const first = await traces.get('a').catch((err: Error) => err.message);
    const second = await traces.get('a');

    expect([first, second.actions.length, calls.length]).toEqual(['503 from the service', 1, 2]);
  });

  it.each([
    [
      'the first 32 bytes of the hash, hex',
      tx({ transaction_hash: Buffer.alloc(48, 0xab).toString('base64') }),
      `0x${'ab'.repeat(32)}`,
    ],
    ['the transaction id without a hash', tx(), '0.0.1001-1700000000-000000000'],
  ])('asks the actions endpoint for %s', (_label, record, expected) => {
    const id = actionsIdFor(record);

    expect(id).toBe(expected);
  });
});
