// The database side of chaos scenario 16: who holds the lease and when each token was acquired (read every
// 100 ms), the commit audit per token (sentinel_commits), and cutting every connection to the database.
import pg from 'pg';
import { sleep } from './seeded.js';

export interface Watch {
  /** token → acquisition time (PostgreSQL's clock, ms). */
  readonly acquired: Map<string, number>;
  holder(): string | undefined;
  stop(): Promise<void>;
}

/** Reads the lease row every 100 ms: who leads, and when each token was acquired. */
export async function watchLease(url: string): Promise<Watch> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  const acquired = new Map<string, number>();
  let holder: string | undefined;
  let stopped = false;
  let db = client;
  const loop = (async () => {
    while (!stopped) {
      try {
        const { rows } = await db.query<{ token: string; holder: string | null; at: string; live: boolean }>(
          `SELECT token::text, holder, (extract(epoch from acquired_at) * 1000)::bigint::text AS at,
             (holder IS NOT NULL AND renewed_at >= now() - ttl_ms * interval '1 millisecond') AS live
           FROM sentinel_lease WHERE id = 1`,
        );
        const row = rows[0];
        holder = row?.live ? (row.holder ?? undefined) : undefined;
        if (row && !acquired.has(row.token)) acquired.set(row.token, Number(row.at));
      } catch {
        // the table is not there yet, or the server restarts: reconnect
        await db.end().catch(() => undefined);
        db = new pg.Client({ connectionString: url });
        db.on('error', () => undefined);
        await db.connect().catch(() => undefined);
      }
      await sleep(100);
    }
  })();
  return {
    acquired,
    holder: () => holder,
    async stop() {
      stopped = true;
      await loop;
      await db.end().catch(() => undefined);
    },
  };
}

export async function commits(url: string): Promise<Map<string, { batches: number; last: number }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ token: string; batches: string; last: string }>(
      `SELECT token::text, batches::text, (extract(epoch from last_at) * 1000)::bigint::text AS last
       FROM sentinel_commits`,
    );
    return new Map(rows.map((r) => [r.token, { batches: Number(r.batches), last: Number(r.last) }]));
  } finally {
    await client.end();
  }
}

export /** Tokens whose last batch committed after the next token was acquired (a commit by a fenced leader). */
function fencedCommits(acquired: Map<string, number>, byToken: Map<string, { last: number }>): number {
  let fenced = 0;
  for (const [token, { last }] of byToken) {
    const next = [...acquired].filter(([t]) => BigInt(t) > BigInt(token)).map(([, at]) => at);
    if (next.length > 0 && last > Math.min(...next)) fenced++;
  }
  return fenced;
}

export async function cutConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows.length;
  } finally {
    await client.end();
  }
}
