// The disk under PostgreSQL fills up while the daemon (ha.enabled, its state in PostgreSQL) runs: every table of
// its database lives in a tablespace on a small tmpfs that the test fills to the last byte. PostgreSQL then fails
// each write that needs a new page with 53100 "could not extend file …: No space left on device". The daemon must
// say so once (a warning naming the disk, `/readyz` failing with the reason, the retry counter), send nothing and
// store no cursor past what PostgreSQL holds — so a leader killed -9 meanwhile loses nothing — and resume by
// itself once space is back, delivering every alert once.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { spawnSentinel, type SentinelProcess } from '../../bench/lib/daemon-process.js';
import { linesWith, sentIds } from '../helpers/ha-replicas.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { metricValue, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';
import {
  markerRules,
  smallDiskUnavailable,
  startSmallDisk,
  sql,
  writeUrlFile,
  type SmallDisk,
} from './pg-cluster.js';

const HBAR = 100_000_000n;
/**
 * Every alert carries 6 KB that do not compress, so its outbox row goes to a new TOAST page: the full disk bites
 * on the first alert, not after the few hundred small rows the first pages still had room for.
 */
const PAD = randomBytes(4_500).toString('base64');
const noDisk = smallDiskUnavailable();
const FAILING = '"msg":"state replication failing';

describe.skipIf((!POSTGRES_BIN && !POSTGRES_REQUIRED) || noDisk !== undefined)(
  `PostgreSQL's disk full${noDisk ? ` (skipped: ${noDisk})` : ''}`,
  () => {
    let server: PostgresServer;
    let env: DaemonEnv;
    let disk: SmallDisk;
    const procs: SentinelProcess[] = [];
    beforeAll(async () => {
      server = await startPostgres();
      env = await startDaemonEnv();
      env.writeRule('markers.yaml', markerRules(['a', 'b'], PAD));
      disk = await startSmallDisk(server, 'disk_full');
    }, 120_000);
    afterAll(async () => {
      for (const p of procs) {
        p.kill('SIGKILL');
        await p.exited;
      }
      await env?.close();
      server?.destroy();
      disk?.destroy();
    });

    function start(holder: string): SentinelProcess {
      const p = spawnSentinel(['run', '--config', env.configPath], { env: { HOLDER: holder } });
      procs.push(p);
      return p;
    }
    const readyz = async (url: string) => {
      const r = await fetch(`${url}/readyz`);
      return { status: r.status, body: await r.text() };
    };
    const mark = (name: string, account: string) =>
      env.ledger.ledger.inject({
        ...largeDebit(account, 2_000n * HBAR, '0.0.1001'),
        memo: `pgm-${name}`,
        result: 'SUCCESS',
      });
    const accepted = (tag: string) =>
      env.slack.requests.filter((r) => r.answer.status === 200 && r.body.includes(tag)).length;

    it('holds every alert while the disk is full, says so once, loses nothing across a kill -9, and resumes', async ({
      onTestFailed,
    }) => {
      writeUrlFile(join(env.dir, 'pg-url'), disk.url);
      env.writeConfig(`ha: { enabled: true, lease_ttl: 3s, holder: '\${HOLDER}' }\n`, {
        state: `{ backend: postgres, postgres: { url_file: ${join(env.dir, 'pg-url')} } }`,
      });
      onTestFailed(() => procs.forEach((p) => console.error(`${p.pid}:\n${p.stdout()}\n${p.stderr()}`)));
      const a = start('pod-a');
      const aUrl = await a.httpUrl(60_000);
      await a.waitFor((out) => out.includes('leader elected'), 60_000);
      mark('a', '0.0.1003');
      await until(async () => accepted('pgm-a') > 0);
      // Its "sent" is in PostgreSQL before the disk fills: a mark held back with it would be sent again by design.
      await until(
        async () =>
          (await sql(disk.url, "SELECT 1 FROM outbox_delivery WHERE status = 'pending'")).length === 0,
      );

      disk.fill();
      mark('b', '0.0.1004');
      await a.waitFor((out) => out.includes(FAILING), 60_000);
      await until(
        async () => ((await metricValue(aUrl, 'ledger_sentinel_state_replication_retries_total')) ?? 0) >= 3,
      );
      const aReady = await readyz(aUrl);

      // The leader dies with the alert only in its memory; the next one must find it again from PostgreSQL.
      a.kill('SIGKILL');
      await a.exited;
      const b = start('pod-b');
      const bUrl = await b.httpUrl(60_000);
      await b.waitFor((out) => out.includes('leader elected'), 60_000);
      await b.waitFor((out) => out.includes(FAILING), 60_000);
      const bReady = await readyz(bUrl);
      const sentWhileFull = accepted('pgm-b');

      disk.free();
      await until(async () => accepted('pgm-b') > 0);
      await b.waitFor((out) => out.includes('"msg":"state replication resumed'), 60_000);
      await until(async () => (await readyz(bUrl)).status === 200);
      await until(
        async () =>
          (await sql(disk.url, "SELECT 1 FROM outbox_delivery WHERE status = 'pending'")).length === 0,
      );
      const sent = [...sentIds(a.stdout()), ...sentIds(b.stdout())];

      expect(aReady.status).toBe(503);
      expect(aReady.body).toContain('out of disk space');
      expect(bReady.status).toBe(503);
      expect(linesWith(a.stdout(), FAILING)).toBe(1);
      expect(a.stdout()).toContain('No space left on device');
      expect(sentWhileFull).toBe(0);
      expect(accepted('pgm-a')).toBe(1);
      expect(accepted('pgm-b')).toBe(1);
      // By id, not by account: the living ledger's own traffic may debit a watched account past the threshold too.
      expect(new Set(sent).size).toBe(sent.length);
    }, 150_000);
  },
);
