// The `accounts` and `tail` config sections (owned here, composed by app/config/schema.ts), and their
// normalisation into WatchedAccount. Strict objects: a typo in a key is an error, not a silent default.
import { z } from 'zod';
import { duration } from '../config/duration.js';
import { formatEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import type { WatchedAccount } from './watched-account.js';
import { AccountId, needsLookup } from './account-id.js';

const EVM_ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/;
const ALIAS = /^[A-Z2-7]+$/;

export const Pushdown = z
  .object({
    result: z.enum(['success', 'fail']).optional(),
    transactiontype: z
      .array(z.string())
      .min(1)
      .refine((names) => names.every((n) => QUERYABLE_TRANSACTION_TYPES.has(n.toUpperCase())), {
        message: 'expected transaction type names the service accepts, like CRYPTOTRANSFER',
      })
      .optional(),
  })
  .strict();
export type Pushdown = z.output<typeof Pushdown>;

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

export const TailConfig = z
  .object({
    strategy: z.enum(['auto', 'per-account', 'global']).default('auto'),
    poll_interval: duration({ min: '100ms' }).default(2000),
    /** Fraction of the interval added or removed at random, so polls do not align. */
    jitter: z.number().min(0).max(0.5).default(0.1),
    /** How far behind the newest visible row a record may still appear (docs/ledger-api.md §17). */
    overlap: duration().default(10_000),
    /**
     * Global strategy only. `immediate`: every poll reads the head (new rows handed over at once) and a bounded
     * sweep re-reads what has become final, once per sweep_interval. `settled`: every poll reads only rows at
     * or below head − overlap, each row once, so alerts come `overlap` later (docs/tailing.md, "Race safety").
     */
    global_mode: z.enum(['immediate', 'settled']).default('immediate'),
    /** Global immediate mode: least time between two sweeps. Default: overlap, at least 1s. */
    sweep_interval: duration({ min: '1s' }).optional(),
    start: z
      .string()
      .refine((s) => s === 'now' || /^\d{1,10}(\.\d{1,9})?$/.test(s), {
        message: 'expected "now" or a timestamp like 1700000000.000000000',
      })
      .default('now'),
    concurrency: z.number().int().min(1).max(64).default(8),
    /** Rounds between two cost estimates of strategy auto. */
    reevaluate_rounds: z.number().int().min(1).default(30),
    max_backoff: duration({ min: '1s' }).default(60_000),
    /** Pages one poll of one stream may read; the rest is read by the next poll (docs/tailing.md). */
    max_pages_per_poll: z.number().int().min(1).max(10_000).default(100),
    /** Time one poll of one stream may spend walking pages; checked between pages. */
    max_poll_duration: duration({ min: '1s' }).default(30_000),
    /**
     * How far ahead of this host's clock a consensus timestamp may be and still be trusted to move the head and
     * the cursors; a record beyond it is evaluated but moves nothing (docs/tailing.md, "Timestamps from the future").
     */
    max_clock_skew: duration({ min: '0ms', max: '1h' }).default(300_000),
  })
  .strict()
  .transform((c) => ({ ...c, sweep_interval: c.sweep_interval ?? Math.max(1000, c.overlap) }))
  .prefault({});
export type TailConfig = z.output<typeof TailConfig>;

/**
 * Accounts in config order; an id given as a long-zero EVM address becomes its `0.0.N`. An id given as an EVM
 * address or alias stays as written, with `lookup` set: src/tail/account-resolver.ts turns it into `0.0.N`.
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

/** The start position as nanoseconds, or 'now'. */
export function startPosition(config: TailConfig): bigint | 'now' {
  return config.start === 'now' ? 'now' : parseTimestamp(config.start);
}
