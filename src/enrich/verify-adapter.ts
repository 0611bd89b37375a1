// enrich/verification's `Verify` over the verification client: an answer per address, "not verified" for the
// service's 404; other failures reject (the enrichment turns them into an "unknown" annotation).
import type { VerificationConfig } from '../config/sections/verification.js';
import type { Verify } from './verification.js';
import { VerifyError } from '../ledger/errors.js';
import type { VerifyClient } from '../ledger/verify-client.js';

export function verifyFor(
  client: VerifyClient | undefined,
  config: {
    readonly verification?: VerificationConfig | undefined;
  },
): Verify | undefined {
  const settings = config.verification;
  if (!client || !settings) return undefined;
  return async (address) => {
    try {
      const result = await client.verify({
        address,
        chainId: settings.chain_id,
        ...(settings.api_key ? { apiKey: settings.api_key } : {}),
      });
      const contract = result.contracts[0];
      if (!contract) return { status: 'unknown', message: 'the service returned no contract' };
      return {
        status: contract.status,
        ...(contract.statusMessage ? { message: contract.statusMessage } : {}),
      };
    } catch (err) {
      if (err instanceof VerifyError && err.kind === 'not-verified') return { status: 'not verified' };
      throw err;
    }
  };
}
