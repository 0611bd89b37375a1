import { z } from 'zod';
import { httpUrl } from '../http-url.js';
import { secret } from '../secret.js';

// A YAML number loses leading zeros and hex forms; chain ids are compared as text.
const ChainId = z
  .string({
    error: (issue) =>
      typeof issue.input === 'number'
        ? `expected a quoted string, got the number ${issue.input}; write chain_id: "${issue.input}"`
        : undefined,
  })
  .regex(/^\d+$/, 'expected a chain id of digits like "295" (Hedera mainnet)');

/** `verification:` — the contract verification service (Sourcify-compatible), optional. */
export const VerificationConfig = z.strictObject({
  base_url: httpUrl('https://sourcify.dev/server'),
  chain_id: ChainId,
  api_key: secret().optional(),
});
export type VerificationConfig = z.output<typeof VerificationConfig>;
