// `ledger-sentinel state migrate --to postgres --url-file F`: moves an existing SQLite state into PostgreSQL in
// one transaction (docs/deployment.md). The SQLite store is opened with its lock, so a daemon still running on the
// state dir makes this fail instead of copying a state that moves on.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pino } from 'pino';
import { connectError, connectPostgres, redactUrl } from '../../state/postgres/pg-connection.js';
import { copySqliteState, TargetNotEmptyError } from '../../state/postgres/copy-sqlite-state.js';
import type { StateConfig } from '../../config/sections/state.js';
import { openStateStore } from '../../state/store.js';
import { StateStoreError } from '../../state/state-store-error.js';
import type { CliContext } from '../command.js';

export interface MigrateOptions {
  readonly dir: string;
  readonly to: string | undefined;
  readonly urlFile: string | undefined;
  readonly force: boolean;
  /** state: from --config, for the URL (state.postgres.url) and TLS when --url-file is not given. */
  readonly state?: StateConfig;
}

/** Exit code: 0 copied, 1 refused or failed (said why on stderr), 2 usage. */
export async function migrateState(ctx: CliContext, opts: MigrateOptions): Promise<number> {
  const fail = (message: string, code = 1) => {
    ctx.stderr.write(`ledger-sentinel state migrate: ${message}\n`);
    return code;
  };
  if (opts.to !== 'postgres') return fail('expected --to postgres (the only target)', 2);
  let url: string | undefined;
  try {
    url = opts.urlFile
      ? readFileSync(resolve(ctx.cwd, opts.urlFile), 'utf8').trim()
      : opts.state?.postgres?.url;
  } catch (err) {
    return fail(`cannot read --url-file ${opts.urlFile}: ${(err as Error).message}`);
  }
  if (!url)
    return fail(
      'no database: pass --url-file <file holding postgres://…> or --config with state.postgres.url_file',
      2,
    );
  const file = join(opts.dir, 'state.db');
  if (!existsSync(file))
    return fail(`no SQLite state at ${file}: pass --state-dir <dir> or --config <file> (state.dir)`);
  let source;
  try {
    source = openStateStore({ dir: opts.dir, pid: ctx.pid });
  } catch (err) {
    return fail(err instanceof StateStoreError ? err.message : String(err));
  }
  const log = pino({ level: 'silent' });
  try {
    const client = await connectPostgres({ url, ssl: opts.state?.postgres?.ssl, log }).catch(
      (err: unknown) => {
        throw connectError(err, url);
      },
    );
    try {
      const { counts, replaced } = await copySqliteState(source.db, client, opts.force);
      if (replaced.length) ctx.stdout.write(`replaced the earlier state (${replaced.join(', ')})\n`);
      const names = Object.keys(counts);
      const width = Math.max(5, ...names.map((n) => n.length));
      for (const name of names) ctx.stdout.write(`${name.padEnd(width)}  ${counts[name]} rows\n`);
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      ctx.stdout.write(
        `copied ${total} rows in ${names.length} tables from ${source.db.name} to ${redactUrl(url)}\n`,
      );
      return 0;
    } finally {
      await client.end().catch(() => undefined);
    }
  } catch (err) {
    if (err instanceof TargetNotEmptyError) return fail(err.message);
    return fail(err instanceof Error ? err.message.replaceAll(url, redactUrl(url)) : String(err));
  } finally {
    source.close();
  }
}
