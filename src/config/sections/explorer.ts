import { z } from 'zod';
import { quote } from '../describe-value.js';

const EXAMPLE = 'https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}';

function isUrlTemplate(text: string): boolean {
  const filled = text.replace(/\{\{\s*[\w.]+\s*\}\}/g, 'x');
  return /^https?:\/\//.test(filled) && URL.canParse(filled);
}

/** An http(s) URL template, or '' for "no links". */
function urlTemplate(example: string) {
  return z.string().superRefine((text, ctx) => {
    if (text === '' || isUrlTemplate(text)) return;
    const message = `expected an http(s) URL template like "${example}" (or "" for no links), got ${quote(text)}`;
    ctx.addIssue({ code: 'custom', input: text, message });
  });
}

/**
 * `explorer:` — links from alerts to a block explorer. Unset, the links follow `ledger.base_url`: the public
 * Hedera mirror nodes get HashScan for their network, any other ledger (a simulator, a private network) none.
 */
export const ExplorerConfig = z.strictObject({
  transaction_url: urlTemplate(EXAMPLE).optional(),
  account_url: urlTemplate('https://hashscan.io/mainnet/account/{{id}}').optional(),
});
export type ExplorerConfig = z.output<typeof ExplorerConfig>;
