// The fence every replicated write passes: inside the write's own transaction, the lease row is read FOR SHARE and
// must still carry the writer's token. A takeover (which UPDATEs the row) waits for that transaction, and any
// transaction after it sees the new token and is refused, so a paused old leader can never commit.
import type { PoolClient } from 'pg';
import { FencedError } from './fenced-error.js';
import { FENCE_CHECK } from './lease-sql.js';

/** Throws FencedError unless the lease row carries `token`; call it first inside the write's transaction. */
export async function checkFence(client: PoolClient, token: bigint | undefined): Promise<void> {
  const result = await client.query<{ token: string }>(FENCE_CHECK);
  const current = result.rows[0] ? BigInt(result.rows[0].token) : undefined;
  if (token === undefined || current !== token) throw new FencedError(token, current);
}
