// The `accounts` config section (owned here, composed by config-file/schema.ts) and its normalisation into
// WatchedAccount. Strict objects: a typo in a key is an error, not a silent default. Below both the tail and
// the rules: both read the watch list, neither owns it.
import { z } from 'zod';
import { formatEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import type { WatchedAccount } from './watched-account.js';
import { AccountId, needsLookup } from './account-id.js';

const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/;
const ALIAS = /^[A-Z2-7]+$/;

export const AccountEntry = z
  .object({
    id: AccountId.optional(),
    /** Rewards only: an upper-case base32 alias or a 40-hex EVM address. */
    rewards_alias: z
      .string()
      .refine((s) => ALIAS.test(s) || EVM_ADDRESS.test(s), {
        message: 'expected an upper-case base32 alias or a 40-hex EVM address',
      })
      .optional(),
    name: z.string().min(1).optional(),
    labels: z.record(z.string(), z.string()).default({}),
    priority: z.number().int().default(0),
    sources: z
      .array(z.enum(['transactions', 'rewards']))
      .min(1)
      .default(['transactions', 'rewards']),
  })
  .strict()
  .refine((a) => a.id !== undefined || a.rewards_alias !== undefined, {
    message: 'each account needs an id (0.0.1234, an EVM address or an alias) or a rewards_alias',
  });
export type AccountEntry = z.output<typeof AccountEntry>;

export const AccountsConfig = z.array(AccountEntry).default([]);

/**
 * Accounts in config order; an id given as a long-zero EVM address becomes its `0.0.N`. An id given as an EVM
 * address or alias stays as written, with `lookup` set: src/tail/resolve/account-resolver.ts turns it into `0.0.N`.
 */
export function watchedAccounts(entries: readonly AccountEntry[]): WatchedAccount[] {
  return entries.map((entry) => {
    const lookup = entry.id !== undefined && needsLookup(entry.id) ? entry.id : undefined;
    const numeric = lookup ? undefined : (entry.id ?? longZeroId(entry.rewards_alias ?? ''));
    const id = lookup ?? numeric ?? entry.rewards_alias ?? '';
    // /transactions takes no alias (docs/ledger-api.md §5.1): an alias-only entry can be tailed for rewards only.
    const sources = numeric || lookup ? entry.sources : (['rewards'] as const);
    return {
      id,
      name: entry.name ?? id,
      labels: entry.labels,
      priority: entry.priority,
      rewardsPath: entry.rewards_alias ?? id,
      sources,
      ...(lookup ? { lookup } : {}),
    };
  });
}

function longZeroId(text: string): string | undefined {
  if (!EVM_ADDRESS.test(text)) return undefined;
  const hex = text.replace(/^0x/, '');
  if (!/^0{24}/.test(hex)) return undefined;
  return formatEntityId({ shard: 0n, realm: 0n, num: BigInt(`0x${hex.slice(24)}`) });
}
