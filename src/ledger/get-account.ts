// GET /api/v1/accounts/{idOrAliasOrEvmAddress} (docs/ledger-client.md, "Accounts"): what turns an alias or an
// EVM address into the account's `0.0.N`. A 404 is an answer ("no such account"), not an error.
import { LedgerHttpError, MalformedResponseError } from './errors.js';
import { getParsed, type GetOptions, type RequestContext } from './ledger-request.js';
import { checkAccountPath } from './query-values.js';
import { AccountSummary } from '@ledger-sentinel/ledger-model/schema';

/** `transactions=false`: the service then skips the embedded transaction list we would not read. */
export function accountUrl(idOrAliasOrEvmAddress: string): string {
  return `/api/v1/accounts/${checkAccountPath(idOrAliasOrEvmAddress)}?transactions=false`;
}

/** The account, or null when the service answers 404 (no account by that id, alias or address). */
export async function getAccount(
  ctx: RequestContext,
  path: string,
  opts: GetOptions = {},
): Promise<AccountSummary | null> {
  try {
    return await getParsed(ctx, 'account', path, opts, (text) => parseAccountText(path, text));
  } catch (err) {
    if (err instanceof LedgerHttpError && err.status === 404) return null;
    throw err;
  }
}

function parseAccountText(path: string, text: string): AccountSummary {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new MalformedResponseError(path, 'the body is not valid JSON', { cause: err });
  }
  const parsed = AccountSummary.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new MalformedResponseError(
    path,
    `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
  );
}
