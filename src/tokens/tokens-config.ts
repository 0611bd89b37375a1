// The `tokens` config section (owned here, composed by config-file/schema.ts): the tokens a team owns, by entity
// id, with a display name and labels, like `accounts:`. Their facts (decimals, symbol, supply, keys) are read from
// the query service at start and refreshed (token-facts.ts); strict objects, so a typo in a key is an error.
import { z } from 'zod';
import { formatEntityId, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';

const EXPECTED = 'expected a token id like 0.0.456858 (shard.realm.num)';

/** `tokens[].id`: an entity id, normalised to `shard.realm.num`; a bare number YAML read as one is its num. */
export const TokenId = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text === 'number') {
    ctx.addIssue({
      code: 'custom',
      message: `${EXPECTED}; YAML read this id as the number ${text}: quote it, like id: "0.0.456858"`,
    });
    return z.NEVER;
  }
  const parsed = parseEntityId(text.trim());
  if (parsed.ok) return formatEntityId(parsed.id);
  ctx.addIssue({
    code: 'custom',
    message:
      parsed.reason === 'range'
        ? `token id "${text}" is out of range (shard ≤ 1023, realm ≤ 65535, num < 2^38)`
        : `${EXPECTED}, got "${text}"`,
  });
  return z.NEVER;
});

export const TokenEntry = z
  .object({
    id: TokenId.meta({ description: 'The token, shard.realm.num (0.0.456858)' }),
    name: z.string().min(1).optional().meta({ description: 'Display name; default the symbol, else the id' }),
    labels: z.record(z.string(), z.string()).default({}),
  })
  .strict();
export type TokenEntry = z.output<typeof TokenEntry>;

export const TokensConfig = z
  .array(TokenEntry)
  .default([])
  .superRefine((entries, ctx) => {
    const seen = new Map<string, number>();
    entries.forEach((entry, i) => {
      const first = seen.get(entry.id);
      if (first === undefined) seen.set(entry.id, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'id'],
          message: `token ${entry.id} is listed twice (also tokens[${first}]): merge the two entries`,
        });
    });
  });

/** One configured token after validation. */
export interface WatchedToken {
  readonly id: string;
  /** The configured name, if any; messages fall back to the symbol, then the id. */
  readonly name: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
}

export function watchedTokens(entries: readonly TokenEntry[]): WatchedToken[] {
  return entries.map((e) => ({ id: e.id, name: e.name, labels: e.labels }));
}
