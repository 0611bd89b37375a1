// Call traces on demand: all contract actions of one transaction, fetched through the ledger client's
// listActions (every page), cached in a bounded LRU so a page of records touching the same call fetches once.
import type { ContractAction, Transaction } from '@ledger-sentinel/ledger-model/schema';
import { Lru } from './lru.js';

export interface CallTrace {
  readonly actions: readonly ContractAction[];
  /** Deepest `call_depth` of the trace; -1 for no actions. */
  readonly maxDepth: number;
}

export type ListActions = (
  idOrHash: string,
) => AsyncIterable<{ readonly records: readonly ContractAction[] }>;

export interface CallTraces {
  /** Rejects when the service does; a failed fetch is not cached. */
  get(idOrHash: string): Promise<CallTrace>;
}

export interface CallTracesOptions {
  readonly listActions: ListActions;
  readonly maxEntries?: number;
}

export function createCallTraces(options: CallTracesOptions): CallTraces {
  const cache = new Lru<string, Promise<CallTrace>>(options.maxEntries ?? 1000);

  async function fetchTrace(idOrHash: string): Promise<CallTrace> {
    const actions: ContractAction[] = [];
    for await (const page of options.listActions(idOrHash)) actions.push(...page.records);
    return { actions, maxDepth: actions.reduce((max, a) => Math.max(max, a.call_depth), -1) };
  }

  return {
    get(idOrHash) {
      const cached = cache.get(idOrHash);
      if (cached) return cached;
      const pending = fetchTrace(idOrHash);
      cache.set(idOrHash, pending);
      pending.catch(() => cache.delete(idOrHash));
      return pending;
    },
  };
}

/**
 * What to ask the actions endpoint for (docs/ledger-api.md §10): the first 32 bytes of the transaction hash, hex — unique,
 * unlike the transaction id, which children and scheduled executions share — else the transaction id.
 */
export function actionsIdFor(tx: Transaction): string {
  const hash = tx.transaction_hash ? Buffer.from(tx.transaction_hash, 'base64').toString('hex') : '';
  return hash.length >= 64 ? `0x${hash.slice(0, 64)}` : tx.transaction_id;
}
