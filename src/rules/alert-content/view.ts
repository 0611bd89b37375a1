// What templates see: every field of the record (bigints as decimal strings) plus derived values, and the
// pre-digested AlertRecord that travels in the alert.
import type { AlertRecord } from '../alert/alert.js';
import { formatHbar } from '../facts/amount.js';
import type { Facts } from '../facts/facts.js';
import { ALERT_TEXT_MAX, capText } from '../alert/cap-text.js';
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import { tokenVariables } from './alert-variables.js';
import { tokenMoves } from './token-moves.js';
import { batchKeyText, batchRole, batchTimestamp } from '../facts/batch.js';

export function recordTimestamp(f: Facts): string {
  return f.tx?.consensus_timestamp ?? f.reward?.timestamp ?? '0';
}

/**
 * Mustache view of one record for one account: the record's own fields (bigints render as decimals) plus
 * derived values. Built once per record, on the first alert that needs it.
 */
export function recordView(f: Facts, explorerLink: ExplorerLink): Record<string, unknown> {
  f.view ??= buildView(f, explorerLink);
  return f.view;
}

function buildView(f: Facts, explorerLink: ExplorerLink): Record<string, unknown> {
  const net = f.net();
  const fee = f.tx?.charged_tx_fee;
  // Object.assign, not spread: several times faster on these wide records, and this runs per alert.
  const view: Record<string, unknown> = Object.assign({}, f.event.record, {
    account: { id: f.account.id, name: f.account.name, labels: f.account.labels },
    memo: f.memo(),
    payer: f.payer() ?? '',
    amount_tinybar: net.toString(),
    amount_hbar: formatHbar(net),
    abs_amount_hbar: formatHbar(net < 0n ? -net : net),
    fee_tinybar: fee?.toString() ?? '',
    fee_hbar: fee === undefined ? '' : formatHbar(fee),
    consensus_time_utc: timestampToIso(f.timeNs()),
    counterparty: f.tx ? f.counterparties().join(', ') : '',
  });
  if (f.tx) Object.assign(view, tokenVariables(alertRecord(f, explorerLink).tokens), batchVariables(f));
  // A staking reward is no transaction: a transaction link template would render a broken link for it.
  view.explorer_url = f.tx ? explorerLink(f.event.record) : '';
  return view;
}

/**
 * Where the record stands in an atomic batch; every value '' when it is in none. `batch_key` as the current
 * service sends it (a key object) would render as "[object Object]": it reads as its text instead.
 */
function batchVariables(f: Facts): Record<string, string> {
  const tx = f.tx;
  const role = tx === undefined ? undefined : batchRole(tx);
  const key = tx?.batch_key;
  const readable: Record<string, string> =
    typeof key === 'object' && key !== null ? { batch_key: batchKeyText(key) } : {};
  if (tx === undefined || role === undefined)
    return { batch: '', batch_payer: '', batch_key_text: '', batch_timestamp: '', ...readable };
  return {
    ...readable,
    batch: role,
    batch_payer: f.payer() ?? '',
    batch_key_text: batchKeyText(tx.batch_key),
    batch_timestamp: batchTimestamp(tx, role),
  };
}

/** The explorer link: RuleSet.explorerLink, the URL template over the record's own fields. */
export type ExplorerLink = (record: object) => string;

/** The record as it travels in alerts; built once per record. */
export function alertRecord(f: Facts, explorerLink: ExplorerLink): AlertRecord {
  f.digest ??= {
    kind: f.tx ? 'transaction' : 'reward',
    consensusTimestamp: recordTimestamp(f),
    transactionId: f.tx?.transaction_id,
    type: f.tx?.name,
    result: f.tx?.result,
    amountTinybar: f.net().toString(),
    feeTinybar: f.tx?.charged_tx_fee.toString(),
    memo: f.tx ? capText(f.memo(), ALERT_TEXT_MAX) : undefined,
    explorerUrl: (f.tx && explorerLink(f.event.record)) || undefined,
    tokens: tokenMoves(f),
  };
  return f.digest;
}
