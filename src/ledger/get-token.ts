// GET /api/v1/tokens/{tokenId} (docs/ledger-client.md, "Tokens"): a token's facts (decimals, symbol, supply, keys).
// The body is handed back as parsed JSON: what the daemon relies on in it is validated by its reader
// (src/tokens/token-info.ts), so one hostile field refuses that field, not the whole read. A 404 is an answer
// ("no such token"), not an error.
import { formatEntityId, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { InvalidParameterError, LedgerHttpError, MalformedResponseError } from './errors.js';
import { getParsed, type GetOptions, type RequestContext } from './ledger-request.js';

/** The path of one token; only `shard.realm.num` ids are sent (the service answers 400 to anything else). */
export function tokenUrl(tokenId: string): string {
  const parsed = parseEntityId(tokenId);
  if (!parsed.ok || !/^\d+\.\d+\.\d+$/.test(tokenId))
    throw new InvalidParameterError('tokenId', `expected a token id like 0.0.456858, got "${tokenId}"`);
  return `/api/v1/tokens/${formatEntityId(parsed.id)}`;
}

/** The token's JSON object, or null when the service answers 404. A body that is not a JSON object is retried. */
export async function getToken(
  ctx: RequestContext,
  path: string,
  opts: GetOptions = {},
): Promise<Record<string, unknown> | null> {
  try {
    return await getParsed(ctx, 'token', path, opts, (text) => parseObject(path, text));
  } catch (err) {
    if (err instanceof LedgerHttpError && err.status === 404) return null;
    throw err;
  }
}

function parseObject(path: string, text: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new MalformedResponseError(path, 'the body is not valid JSON', { cause: err });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new MalformedResponseError(path, 'expected a JSON object');
  return body as Record<string, unknown>;
}
