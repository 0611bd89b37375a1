// Every name a `summary` / `description` template may use, one list per thing that provides it (the views are
// built in alert-content/view.ts and alert-content/build-alert.ts; the table in rules/README.md, "Templates",
// documents them). `check` and the loader report any other name as an error, so adding a value to a view is one
// line in the right list here.
// `a.b` is a name inside an object, `a.*` any name under `a` (labels), and a list's item fields are written
// `list.field`: inside `{{#list}}…{{/list}}` a template says `{{field}}`.
import type { z } from 'zod';
import {
  NftTransfer,
  StakingReward,
  StakingRewardTransfer,
  TokenTransfer,
  Transaction,
  Transfer,
} from '@ledger-sentinel/ledger-model/schema';

const fields = (schema: z.ZodObject): string[] => Object.keys(schema.shape);
const items = (list: string, schema: z.ZodObject): string[] => fields(schema).map((f) => `${list}.${f}`);

/** Filled in every alert. */
const ALERT = [
  'account.id',
  'account.name',
  'account.labels.*',
  'rule.id',
  'rule.severity',
  'rule.labels.*',
  'group.*',
  'status',
  'match_count',
  // What happened (alert-content/alert-variables.ts): filled in every alert, empty where it does not apply.
  'why',
  'resolution',
  'contract_verification',
  'annotations.*',
  'account_url',
  'others_count',
  'others.transaction_id',
  'others.consensus_timestamp',
  'others.type',
  'others.result',
  'others.amount_tinybar',
  'others.explorer_url',
];

/** Token and NFT moves of the watched account in a transaction (alert-content/alert-variables.ts, tokenVariables). */
const TOKENS = [
  'tokens.token_id',
  'tokens.amount',
  'tokens.amount_text',
  'tokens.symbol',
  'tokens.name',
  'tokens.decimals',
  'tokens.serial',
  'tokens.counterparty',
  'tokens.text',
  'token_id',
  'token_amount',
  'token_amount_text',
  'token_symbol',
  'token_name',
  'token_counterparty',
  'counterparty',
];

/** Where a transaction stands in an atomic batch (alert-content/view.ts, batchVariables). */
const BATCH = ['batch', 'batch_payer', 'batch_key_text', 'batch_timestamp'];

/** Values derived from any record, transaction or reward (alert-content/view.ts). */
const RECORD = ['amount_tinybar', 'amount_hbar', 'abs_amount_hbar', 'consensus_time_utc', 'explorer_url'];

export const TEMPLATE_VARIABLES = {
  alert: ALERT,
  transaction: [
    ...fields(Transaction),
    ...items('transfers', Transfer),
    ...items('token_transfers', TokenTransfer),
    ...items('nft_transfers', NftTransfer),
    ...items('staking_reward_transfers', StakingRewardTransfer),
    ...RECORD,
    'memo',
    'payer',
    'fee_tinybar',
    'fee_hbar',
    ...TOKENS,
    ...BATCH,
  ],
  reward: [...fields(StakingReward), ...RECORD],
  // Contract actions are fetched for rules using call_depth or action, but no value of them is in the view yet.
  trace: [],
  window: ['window_duration', 'window_total', 'window_total_hbar'],
  absence: ['window_duration', 'last_seen_utc'],
} satisfies Record<string, readonly string[]>;

export type VariableProvider = keyof typeof TEMPLATE_VARIABLES;

/** Who fills a list's variables, for "not filled in this rule" messages. */
export const PROVIDED_BY: Readonly<Record<VariableProvider, string>> = {
  alert: 'every alert',
  transaction: 'rules with source: transactions (absence alerts have no record)',
  reward: 'rules with source: rewards (absence alerts have no record)',
  trace: 'rules using call_depth or action',
  window: 'rules with a count, debit_sum or credit_sum window',
  absence: 'rules with an absence window',
};

/** What a rule is, as far as its template variables go. */
export interface TemplateContext {
  readonly source: 'transactions' | 'rewards';
  readonly window: 'none' | 'absent' | 'count' | 'sum';
  readonly trace: boolean;
}

/** The lists whose variables are filled in the alerts of a rule like `context`. */
export function providersFor(context: TemplateContext): VariableProvider[] {
  const providers: VariableProvider[] = ['alert'];
  if (context.window === 'absent') providers.push('absence');
  else providers.push(context.source === 'rewards' ? 'reward' : 'transaction');
  if (context.window === 'count' || context.window === 'sum') providers.push('window');
  if (context.trace) providers.push('trace');
  return providers;
}
