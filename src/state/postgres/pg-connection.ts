// Connecting to PostgreSQL: TLS from files, bounded connect and statement times, and a URL that is never
// printed with its password.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Logger } from 'pino';

export interface PostgresSsl {
  readonly ca_file?: string;
  readonly cert_file?: string;
  readonly key_file?: string;
  readonly reject_unauthorized?: boolean;
}

export interface PostgresConnectOptions {
  readonly url: string;
  readonly ssl?: PostgresSsl;
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
  readonly log: Logger;
  readonly readFile?: (path: string) => string;
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparsable PostgreSQL URL>';
  }
}

/**
 * A transaction left idle this long is ended by the server. A replica paused (SIGSTOP, a frozen VM) between two
 * statements of a batch would otherwise hold the lease row it read FOR SHARE (the fence) for as long as it stays
 * paused, and no standby could take the lease over; its batch is then retried on waking and refused by the fence.
 */
export const IDLE_IN_TRANSACTION_MS = 5_000;

export function clientConfig(options: PostgresConnectOptions): pg.ClientConfig {
  const read = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  const s = options.ssl;
  const ssl =
    s && (s.ca_file || s.cert_file || s.key_file || s.reject_unauthorized !== undefined)
      ? {
          ca: s.ca_file ? read(s.ca_file) : undefined,
          cert: s.cert_file ? read(s.cert_file) : undefined,
          key: s.key_file ? read(s.key_file) : undefined,
          rejectUnauthorized: s.reject_unauthorized ?? true,
        }
      : undefined;
  return {
    connectionString: options.url,
    ...(ssl ? { ssl } : {}),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    query_timeout: (options.statementTimeoutMs ?? 30_000) + 5_000,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
    application_name: 'ledger-sentinel',
  };
}

/** Opens one connection; an error event (the server went away) is logged, the next query then fails and retries. */
export async function connectPostgres(options: PostgresConnectOptions): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(options));
  client.on('error', (err) => options.log.warn({ err }, 'PostgreSQL connection lost'));
  try {
    await client.connect();
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw err;
  }
}

/** A start-up failure to connect, naming the server without its password and what to check. */
export function connectError(err: unknown, url: string): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return Object.assign(
    new Error(
      `cannot open the PostgreSQL state at ${redactUrl(url)}: ${reason}; check state.postgres.url (or url_file), ` +
        'that the server is reachable and the user may create tables in that database',
    ),
    { cause: err },
  );
}
