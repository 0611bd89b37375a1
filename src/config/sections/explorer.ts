import { z } from 'zod';
import { quote } from '../describe-value.js';

const DEFAULT = 'https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}';

function isUrlTemplate(text: string): boolean {
  const filled = text.replace(/\{\{\s*[\w.]+\s*\}\}/g, 'x');
  return /^https?:\/\//.test(filled) && URL.canParse(filled);
}

/** `explorer:` — links from alerts to a block explorer. */
export const ExplorerConfig = z.strictObject({
  transaction_url: z
    .string()
    .superRefine((text, ctx) => {
      if (isUrlTemplate(text)) return;
      const message = `expected an http(s) URL template like "${DEFAULT}", got ${quote(text)}`;
      ctx.addIssue({ code: 'custom', input: text, message });
    })
    .default(DEFAULT),
});
export type ExplorerConfig = z.output<typeof ExplorerConfig>;
