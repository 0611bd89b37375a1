// Value schemas shared by conditions and windows: amounts, entity ids, token units.
import { z } from 'zod';
import { parseAmount } from './amount.js';
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';

/** An HBAR amount in tinybars, written with its unit: "10000 hbar", "0.5 hbar", "5 tinybar" (amount.ts). */
export const HbarAmount = z
  .union([z.string(), z.number()], { error: (issue) => amountMessage(issue.input) })
  .transform((v, ctx) => {
    const parsed = parseAmount(v);
    if (parsed.ok) return parsed.tinybar;
    ctx.addIssue({ code: 'custom', message: parsed.message, input: v });
    return z.NEVER;
  })
  // Editors flag a bare number at once; the loader refuses it with the fix (amount.ts).
  .meta({
    description: 'HBAR amount with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar"',
    type: 'string',
    pattern:
      '^\\s*[0-9][0-9_]*(\\.[0-9]+)?\\s*([hH][bB][aA][rR][sS]?|[tT][iI][nN][yY][bB][aA][rR][sS]?|ℏ)\\s*$',
  });

function amountMessage(input: unknown): string {
  const parsed = parseAmount(input);
  return parsed.ok ? '' : parsed.message;
}

/** Token units (the token's smallest unit, as on the ledger): a whole number. */
export const TokenUnits = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,19}$/)], {
    error: (i) => `expected a whole number of token units like 1000, got ${JSON.stringify(i.input)}`,
  })
  .transform((v) => BigInt(v));

export const AccountId = z
  .string({ error: (i) => `expected an entity id like 0.0.1234, got ${JSON.stringify(i.input)}` })
  .regex(ENTITY_ID_PATTERN, {
    error: (i) => `expected an entity id like 0.0.1234, got ${JSON.stringify(i.input)}`,
  });

export const AccountIdList = z.array(AccountId).min(1, 'expected at least one entity id');
