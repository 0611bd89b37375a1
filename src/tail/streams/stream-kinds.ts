// The registry of stream kinds: one line per kind, like the notifiers' registry. Per-account kinds are named
// by the `accounts[].sources` they answer to; the global stream is the ledger-wide one.
import { accountRewards } from './kinds/account-rewards/account-rewards.js';
import { accountTransactions } from './kinds/account-transactions/account-transactions.js';
import { globalTransactions } from './kinds/global-transactions/global-transactions.js';

export const STREAM_KINDS = {
  transactions: accountTransactions,
  rewards: accountRewards,
  global: globalTransactions,
} as const;

export type StreamKindName = keyof typeof STREAM_KINDS;
