// What only the PostgreSQL backend has to show: batches survive a database restart (retried, nothing lost or
// doubled) and a replica whose lease was taken over writes nothing more (fencing).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POSTGRES_BIN,
  POSTGRES_REQUIRED,
  startPostgres,
  type PostgresServer,
} from '../../../test/helpers/postgres.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { createMetrics } from '../../observability/metrics.js';
import { FencedError } from '../fenced-error.js';
import { dump, modules, NS, step } from '../../../test/helpers/state-fixtures.js';
import { openPostgresStore } from './open-postgres-store.js';

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)('PostgreSQL state backend', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres();
  }, 120_000);
  afterAll(() => server?.destroy());

  async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }

  it('retries the queued batches across a database restart: nothing lost, nothing doubled', async () => {
    const url = server.createDatabase('restart');
    const logs = captureLogs();
    const metrics = createMetrics();
    const store = await openPostgresStore({
      url,
      log: logs.logger,
      backoff: { initialMs: 20, maxMs: 200 },
      metrics,
    });
    const m = modules(store);
    for (let i = 1; i <= 10; i++) step(store, m, i);
    await store.durable();

    server.stop();
    for (let i = 11; i <= 20; i++) step(store, m, i);
    const durable = store.durable();
    await until(() => logs.text().includes('state replication failing'));
    const lagging = store.lagging?.();
    server.restart();
    await durable;
    // Said once when it starts (however many retries), once when it ends; readiness saw the reason meanwhile.
    expect(logs.text().split('state replication failing').length - 1).toBe(1);
    expect(logs.text()).toContain('state replication resumed');
    expect(lagging).toContain('unreachable or restarting');
    expect(store.lagging?.()).toBeUndefined();
    const before = dump(store);
    await store.close();

    const again = await openPostgresStore({ url, log: logs.logger });
    expect(dump(again)).toEqual(before);
    expect(modules(again).tail.cursor('0.0.1234')).toEqual({ safe: NS + 20n, read: NS + 21n });
    const [outbox] = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM outbox_alert');
    expect(outbox?.n).toBe('20');
    const retries = (await metrics.stateReplicationRetries.get()).values[0]?.value ?? 0;
    expect(retries).toBeGreaterThan(0);
    expect((await metrics.stateReplicationPending.get()).values[0]?.value).toBe(0);
    await again.close();
  }, 120_000);

  it('stops, writing nothing, when PostgreSQL no longer holds transactions it acknowledged (a failover that lost them)', async () => {
    const url = server.createDatabase('lost_commits');
    const logs = captureLogs();
    const store = await openPostgresStore({ url, log: logs.logger, fence: () => 3n });
    await query(url, 'INSERT INTO sentinel_lease (id, token, holder) VALUES (1, 3, $$us$$)');
    const m = modules(store);
    for (let i = 1; i <= 3; i++) {
      step(store, m, i);
      await store.durable();
    }
    // What a standby promoted before it received the last two commits holds: the first step only.
    await query(url, 'UPDATE sentinel_commits SET batches = 1 WHERE token = 3');
    await query(url, `UPDATE tail_cursor SET safe = ${NS + 1n}`);
    step(store, m, 4);
    const refused = await store.durable().catch((err: unknown) => err);

    expect(refused).toMatchObject({ name: 'CommitsLostError', held: 1, committed: 3 });
    expect(store.check()).toMatch(/PostgreSQL lost 2 of the 3 transactions/);
    const cursors = await query<{ safe: string }>(url, 'SELECT safe::text AS safe FROM tail_cursor');
    expect(cursors).toEqual([{ safe: String(NS + 1n) }]);
    await store.close();
  }, 60_000);

  it('counts commits per token: batches written before the lease row, or under an earlier token, are not lost ones', async () => {
    const url = server.createDatabase('commits_per_token');
    const logs = captureLogs();
    let token = 3n;
    const store = await openPostgresStore({ url, log: logs.logger, fence: () => token });
    const m = modules(store);
    // No lease row yet: nothing is fenced or audited.
    step(store, m, 1);
    await store.durable();
    await query(url, 'INSERT INTO sentinel_lease (id, token, holder) VALUES (1, 3, $$us$$)');
    step(store, m, 2);
    await store.durable();
    // A new leadership of the same store: its count starts again.
    await query(url, 'UPDATE sentinel_lease SET token = 4 WHERE id = 1');
    token = 4n;
    step(store, m, 3);
    await store.durable();

    expect(store.check()).toBeUndefined();
    const commits = await query<{ token: string; batches: string }>(
      url,
      'SELECT token::text AS token, batches FROM sentinel_commits ORDER BY token',
    );
    expect(commits).toEqual([
      { token: '3', batches: '1' },
      { token: '4', batches: '1' },
    ]);
    await store.close();
  }, 60_000);

  it('opens a state that lost an alert but kept its delivery, leaving the orphan out and saying so', async () => {
    const url = server.createDatabase('orphans');
    const logs = captureLogs();
    const store = await openPostgresStore({ url, log: logs.logger });
    const m = modules(store);
    for (let i = 1; i <= 3; i++) step(store, m, i);
    await store.durable();
    await store.close();
    // What a failover to a standby that was behind, with a writer going on, can leave: a delivery, no alert.
    const [lost] = await query<{ id: string }>(url, 'SELECT id FROM outbox_alert ORDER BY id LIMIT 1');
    await query(url, `DELETE FROM outbox_alert WHERE id = '${lost?.id ?? ''}'`);

    const again = await openPostgresStore({ url, log: logs.logger });
    const alerts = again.db.prepare('SELECT count(*) AS n FROM outbox_alert').get() as { n: number };
    const deliveries = again.db.prepare('SELECT alert_id FROM outbox_delivery').all() as {
      alert_id: string;
    }[];
    await again.close();
    const left = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM outbox_delivery');

    expect(alerts.n).toBe(2);
    expect(left[0]?.n).toBe('2'); // removed from PostgreSQL too, so that the next load is clean
    expect(deliveries.map((d) => d.alert_id)).not.toContain(lost?.id);
    expect(deliveries).toHaveLength(2);
    expect(logs.text()).toContain('whose parent row was missing');
    expect(logs.text()).toContain(lost?.id);
  }, 60_000);

  it('refuses every batch once a newer leader holds the lease, and applies nothing of it', async () => {
    const url = server.createDatabase('fencing');
    const logs = captureLogs();
    let token = 7n;
    const store = await openPostgresStore({ url, log: logs.logger, fence: () => token });
    await query(url, 'INSERT INTO sentinel_lease (id, token, holder) VALUES (1, 7, $$us$$)');
    const m = modules(store);
    step(store, m, 1);
    await store.durable();

    await query(url, 'UPDATE sentinel_lease SET token = 8, holder = $$them$$ WHERE id = 1');
    step(store, m, 2);
    const refused = await store.durable().catch((err: unknown) => err);

    expect(refused).toBeInstanceOf(FencedError);
    expect(refused).toMatchObject({ ours: 7n, current: 8n });
    expect(() => step(store, m, 3)).toThrow(FencedError);
    expect(store.check()).toMatch(/stopped accepting this replica's writes: .*fencing token 8/);
    const cursors = await query<{ safe: string }>(url, 'SELECT safe::text AS safe FROM tail_cursor');
    expect(cursors).toEqual([{ safe: String(NS + 1n) }]);
    const [alerts] = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM outbox_alert');
    expect(alerts?.n).toBe('1');
    token = 8n; // the token is read per batch: the new leader writes on
    await store.close();

    const leader = await openPostgresStore({ url, log: logs.logger, fence: () => 8n });
    const lm = modules(leader);
    step(leader, lm, 2);
    await leader.durable();
    expect(lm.tail.cursor('0.0.1234')).toEqual({ safe: NS + 2n, read: NS + 3n });
    await leader.close();
    const standby = await openPostgresStore({ url, log: logs.logger, fence: () => undefined });
    step(standby, modules(standby), 9);
    await expect(standby.durable()).rejects.toMatchObject({
      name: 'FencedError',
      ours: undefined,
      current: 8n,
    });
    await standby.close();
    const cursor = await query<{ safe: string }>(url, 'SELECT safe::text AS safe FROM tail_cursor');
    expect(cursor).toEqual([{ safe: String(NS + 2n) }]);
  }, 60_000);

  it('a snapshot (replicate: false) loads the shared state and never writes to it; each leader batch is audited', async () => {
    const url = server.createDatabase('snapshot');
    const log = captureLogs().logger;
    await query(
      url,
      'CREATE TABLE IF NOT EXISTS sentinel_lease (id int PRIMARY KEY, token bigint NOT NULL, holder text)',
    );
    await query(url, 'INSERT INTO sentinel_lease (id, token, holder) VALUES (1, 4, $$leader$$)');
    const leader = await openPostgresStore({ url, log, fence: () => 4n });
    const lm = modules(leader);
    step(leader, lm, 1);
    step(leader, lm, 2);
    await leader.durable();

    const snapshot = await openPostgresStore({ url, log, replicate: false });
    const seen = modules(snapshot).tail.cursor('0.0.1234');
    step(snapshot, modules(snapshot), 9);
    await snapshot.durable();
    await snapshot.close();
    await leader.close();

    expect(seen).toEqual({ safe: NS + 2n, read: NS + 3n });
    const cursor = await query<{ safe: string }>(url, 'SELECT safe::text AS safe FROM tail_cursor');
    expect(cursor).toEqual([{ safe: String(NS + 2n) }]);
    const audit = await query<{ token: string; batches: string }>(
      url,
      'SELECT token::text, batches::text FROM sentinel_commits',
    );
    expect(audit).toEqual([{ token: '4', batches: expect.stringMatching(/^[12]$/) }]);
  }, 60_000);

  it('follows the schema of the modules: a column added later, a dropped table; refuses a table without a key', async () => {
    const url = server.createDatabase('schema');
    const log = captureLogs().logger;
    const store = await openPostgresStore({ url, log });
    store.db.exec('CREATE TABLE m (k TEXT PRIMARY KEY, v INTEGER NOT NULL)');
    store.db.exec('CREATE TABLE gone (k INTEGER PRIMARY KEY)');
    store.transaction(() => store.db.exec("INSERT INTO m VALUES ('a', 1); INSERT INTO gone VALUES (1)"));
    await store.durable();
    store.db.exec('ALTER TABLE m ADD COLUMN note TEXT');
    store.transaction(() => store.db.exec("UPDATE m SET note = 'added'"));
    store.db.exec('DROP TABLE gone');
    await store.durable();
    store.db.exec('CREATE TABLE nokey (x INTEGER)');
    const keyless = () => store.transaction(() => store.db.exec('INSERT INTO nokey VALUES (1)'));

    expect(keyless).toThrow(/state table nokey has no PRIMARY KEY, .*declare a primary key/);
    await store.close();
    const again = await openPostgresStore({ url, log });
    expect(again.db.prepare('SELECT * FROM m').all()).toEqual([{ k: 'a', v: 1, note: 'added' }]);
    expect(again.db.prepare("SELECT name FROM sqlite_master WHERE name = 'gone'").all()).toEqual([]);
    expect(await query(url, "SELECT to_regclass('gone') AS t")).toEqual([{ t: null }]);
    await again.close();
  }, 60_000);

  it('stops with a message naming the column when a value cannot go to PostgreSQL', async () => {
    const url = server.createDatabase('baddata');
    const store = await openPostgresStore({ url, log: captureLogs().logger });
    store.db.exec('CREATE TABLE m (k TEXT PRIMARY KEY, v INTEGER)');
    store.transaction(() => store.db.prepare('INSERT INTO m VALUES (?, ?)').run('a', 'not a number'));

    await expect(store.durable()).rejects.toThrow(
      'state column m.v holds string not a number, which a PostgreSQL bigint column cannot take',
    );
    expect(store.check()).toMatch(/state column m\.v/);
    await store.close();
  }, 60_000);

  it('says which server it cannot reach, without the password, and what to check', async () => {
    const url = `postgres://sentinel:pw-hidden-1@127.0.0.1:${server.port}/no_such_db`;

    const opening = openPostgresStore({ url, log: captureLogs().logger });

    await expect(opening).rejects.toThrow(
      /^cannot open the PostgreSQL state at postgres:\/\/sentinel:\*\*\*@127\.0\.0\.1:\d+\/no_such_db: database "no_such_db" does not exist; check state\.postgres\.url/,
    );
    await expect(opening).rejects.not.toThrow(/pw-hidden-1/);
  });
});

/** Waits for a condition that an event will make true; bounded so that a broken backend fails the test. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 600 && !cond(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!cond()) throw new Error('condition not met within 30 s');
}
