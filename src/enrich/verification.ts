// Contract verification of contracts created by watched accounts, as alert annotations. A missing, failing or
// unconfigured verification never blocks an alert: the annotation says what happened instead.
import { longZeroAddress, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import { Lru } from './lru.js';

export interface VerifyAnswer {
  /** perfect | partial | error | not verified (or whatever else the service says). */
  readonly status: string;
  readonly message?: string;
}

export type Verify = (address: string) => Promise<VerifyAnswer>;

export interface ContractVerification {
  /** Annotations for the record: `{}` unless it is a successful contract creation. Never rejects. */
  annotate(record: Transaction): Promise<Record<string, string>>;
}

export interface ContractVerificationOptions {
  /** undefined when no verification service is configured. */
  readonly verify: Verify | undefined;
  readonly maxEntries?: number;
}

export function createContractVerification(options: ContractVerificationOptions): ContractVerification {
  const cache = new Lru<string, VerifyAnswer>(options.maxEntries ?? 1000);

  async function answerFor(address: string): Promise<VerifyAnswer> {
    if (!options.verify) return { status: 'not checked', message: 'no verification service is configured' };
    const cached = cache.get(address);
    if (cached) return cached;
    try {
      const answer = await options.verify(address);
      cache.set(address, answer);
      return answer;
    } catch (err) {
      // Not cached: the next contract or restart tries again.
      return { status: 'unknown', message: `verification failed: ${(err as Error).message}` };
    }
  }

  return {
    async annotate(record: Transaction): Promise<Record<string, string>> {
      const address = createdContractAddress(record);
      if (!address) return {};
      const answer = await answerFor(address);
      return {
        contract_address: address,
        contract_verification: answer.message ? `${answer.status} (${answer.message})` : answer.status,
      };
    },
  };
}

/** The long-zero EVM address of the contract a successful CONTRACTCREATEINSTANCE created. */
export function createdContractAddress(record: Transaction): string | undefined {
  if (record.name !== 'CONTRACTCREATEINSTANCE' || record.result !== 'SUCCESS' || !record.entity_id)
    return undefined;
  const parsed = parseEntityId(record.entity_id);
  return parsed.ok ? longZeroAddress(parsed.id) : undefined;
}
