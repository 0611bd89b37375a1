// The template variables about what happened (why it fired, what resolved it, the trigger and the other records,
// token moves, contract verification, the account link): one list, documented in rules/README.md ("Variables").
// `check` validates templates against names like these; ALERT_VARIABLES is that list for these additions.
import type { AlertRecord, AlertTokenMove } from '../alert/alert.js';
import { tokenMoveText, tokenUnits } from './token-moves.js';

export interface AlertVariable {
  readonly name: string;
  readonly doc: string;
}

export const ALERT_VARIABLES: readonly AlertVariable[] = [
  { name: 'why', doc: 'why it fired: the condition with the values that matched' },
  { name: 'resolution', doc: 'resolves: what resolved it; empty while firing' },
  { name: 'others_count', doc: 'windows: how many other records are listed besides the trigger' },
  { name: 'others', doc: 'windows: the other records, `{{#others}}{{transaction_id}} {{/others}}`' },
  { name: 'tokens', doc: 'token and NFT moves of the account: `{{#tokens}}{{text}} {{/tokens}}`' },
  { name: 'token_id', doc: 'the first token moved' },
  { name: 'token_amount', doc: 'its net change in raw units, the smallest unit (signed)' },
  {
    name: 'token_amount_text',
    doc: "the same in the token's units, `-2,938.43768 USDC` (raw units when decimals are unknown)",
  },
  { name: 'token_name', doc: 'its name from `tokens:` in the config, else its symbol, else its id' },
  { name: 'token_symbol', doc: "the token's symbol, empty when its facts are not known" },
  { name: 'token_counterparty', doc: 'the accounts on the other side of that token move' },
  { name: 'counterparty', doc: 'the accounts credited HBAR by the transaction (fee collectors excluded)' },
  {
    name: 'contract_verification',
    doc: '`verify_contracts` rules: the verification status of the new contract',
  },
  { name: 'annotations', doc: 'every enrichment result, e.g. `{{annotations.contract_verification}}`' },
  { name: 'account_url', doc: 'a link to the account on the explorer (empty when none serves the network)' },
];

/** Record-level variables: its token moves. */
export function tokenVariables(moves: readonly AlertTokenMove[] | undefined): Record<string, unknown> {
  const list = (moves ?? []).map((m) => ({
    token_id: m.tokenId,
    amount: m.amount,
    amount_text: m.serial === undefined ? tokenUnits(m.amount, m.decimals, m.symbol) : '',
    symbol: m.symbol ?? '',
    name: m.name || m.symbol || m.tokenId,
    decimals: m.decimals ?? '',
    serial: m.serial ?? '',
    counterparty: m.counterparty ?? '',
    text: tokenMoveText(m),
  }));
  const first = list[0];
  return {
    tokens: list,
    token_id: first?.token_id ?? '',
    token_amount: first?.amount ?? '',
    token_amount_text: first ? first.amount_text || first.text : '',
    token_symbol: first?.symbol ?? '',
    token_name: first?.name ?? '',
    token_counterparty: first?.counterparty ?? '',
  };
}

export interface TransitionWords {
  readonly why?: string;
  readonly resolution?: string;
  readonly others: readonly AlertRecord[];
  readonly annotations: Readonly<Record<string, string>>;
  readonly accountUrl?: string;
}

/** Alert-level variables: why, resolution, the other records of a window, enrichment, the account link. */
export function transitionVariables(t: TransitionWords): Record<string, unknown> {
  return {
    why: t.why ?? '',
    resolution: t.resolution ?? '',
    others_count: t.others.length,
    others: t.others.map((r) => ({
      transaction_id: r.transactionId ?? '',
      consensus_timestamp: r.consensusTimestamp,
      type: r.type ?? '',
      result: r.result ?? '',
      amount_tinybar: r.amountTinybar ?? '',
      explorer_url: r.explorerUrl ?? '',
    })),
    contract_verification: t.annotations.contract_verification ?? '',
    annotations: t.annotations,
    account_url: t.accountUrl ?? '',
  };
}
