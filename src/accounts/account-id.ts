// `accounts[].id` as users name accounts (docs/configuration.md, "accounts"): an entity id (`0.0.1234`, `1234`),
// a long-zero EVM address (decoded here to its `0.0.N`), or an EVM address or alias that only the query service
// can turn into an id (kept as written, normalised, and resolved at start: src/tail/resolve/account-resolver.ts).
import { z } from 'zod';
import { formatEntityId, parseEntityId, parseLongZeroAddress } from '@ledger-sentinel/ledger-model/entity-id';
import { checkAccountPath } from '../ledger/query-values.js';

const EXPECTED =
  'expected an account id like 0.0.1234 or 1234, an EVM address (0x and 40 hex digits) or an upper-case base32 alias';
const BASE32 = /^[A-Z2-7]+$/;
/** A serialized public key is 34 bytes or more, so a real alias has at least 55 base32 characters. */
const MIN_ALIAS_HINT = 40;

export type AccountIdParse = { ok: true; id: string } | { ok: false; message: string };

/** `0.0.N` for the forms that decode locally; `0x…` (lower-case) or the alias for those needing a lookup. */
export function parseAccountId(text: string): AccountIdParse {
  const entity = parseEntityId(text);
  if (entity.ok) return { ok: true, id: formatEntityId(entity.id) };
  if (entity.reason === 'range')
    return {
      ok: false,
      message: `account id "${text}" is out of range (shard ≤ 1023, realm ≤ 65535, num < 2^38)`,
    };
  const evm = parseLongZeroAddress(text);
  if (evm.ok) return { ok: true, id: formatEntityId(evm.id) };
  if (evm.reason === 'range')
    return {
      ok: false,
      message: `long-zero EVM address "${text}" encodes a num beyond 2^38 - 1: no such account`,
    };
  if (evm.reason === 'not-long-zero') return { ok: true, id: `0x${text.replace(/^0x/, '').toLowerCase()}` };
  return parseAlias(text);
}

function parseAlias(text: string): AccountIdParse {
  if (BASE32.test(text) && isAccountPath(text)) return { ok: true, id: text };
  const upper = text.toUpperCase();
  // Only alias-sized text gets the hint: `treasury` is a name, not a lower-cased alias.
  if (text !== upper && text.length >= MIN_ALIAS_HINT && BASE32.test(upper) && isAccountPath(upper))
    return { ok: false, message: `aliases are upper-case base32: write "${upper}"` };
  if (BASE32.test(text))
    return {
      ok: false,
      message: `"${text}" is not a valid base32 alias (its length or last character is off)`,
    };
  return { ok: false, message: `${EXPECTED}, got "${text}"` };
}

function isAccountPath(text: string): boolean {
  try {
    checkAccountPath(text);
    return true;
  } catch {
    return false;
  }
}

/** True when the id needs `GET /api/v1/accounts/{id}` to become a `0.0.N` (an EVM address or an alias). */
export function needsLookup(id: string): boolean {
  return !/^\d+\.\d+\.\d+$/.test(id);
}

/** The zod type of `accounts[].id`: a number or any of the string forms above. */
export const AccountId = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const parsed = typeof value === 'number' ? parseNumber(value) : parseAccountId(value);
  if (parsed.ok) return parsed.id;
  ctx.addIssue({ code: 'custom', message: parsed.message });
  return z.NEVER;
});

/**
 * YAML reads an unquoted `0x…` as a hexadecimal number and `0.1234` as a fraction: a long-zero address still
 * comes out as its num, but anything else lost its digits before it reached us, so the fix is to quote it.
 */
function parseNumber(value: number): AccountIdParse {
  if (Number.isSafeInteger(value) && value >= 0) return parseAccountId(String(value));
  if (value >= 0 && Number.isFinite(value))
    return {
      ok: false,
      message: `YAML read this id as a number (an unquoted 0x… or 0.N is one): quote it, like id: "0x71c7…"`,
    };
  return { ok: false, message: `${EXPECTED}, got ${value}` };
}
