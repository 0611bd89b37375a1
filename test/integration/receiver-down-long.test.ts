// A receiver down for longer than the outbox keeps an alert (a notifier's `deadline`, 1 h by default), compressed:
// the same code with `deadline: 4s` and a Slack receiver answering 503 for several deadlines while matches keep
// coming at a steady rate, then back. The bound is the deadline: an alert older than it at a failed attempt is
// dead-lettered — logged with its id, counted, kept in the outbox as `dead` — never dropped silently. Every other
// alert is delivered once after the receiver returns, folded into digests, paced by `min_interval`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  metricSum,
  metricsText,
  spawnSentinel,
  type SentinelProcess,
} from '../../bench/lib/daemon-process.js';
import { sentIds } from '../helpers/ha-replicas.js';
import { startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HBAR = 100_000_000n;
const MARKERS = 16;
const MIN_INTERVAL_MS = 700;
const RULES = `rules:
  - id: marker
    when: { all: [{ debit: '1000 hbar' }, { memo: { contains: 'down-m' } }] }
    summary: 'marker {{memo}}'
    notify: [ops-slack]
    throttle: 0s
`;

interface Hit {
  readonly at: number;
  readonly status: number;
}

/** A Slack-like receiver that is down (503) until told otherwise, recording when each request arrived. */
async function startReceiver(): Promise<{ url: string; hits: Hit[]; up(): void; close(): Promise<void> }> {
  const hits: Hit[] = [];
  let down = true;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = down ? 503 : 200;
      hits.push({ at: performance.now(), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(down ? 'unavailable' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T000/B000/XXXX`,
    hits,
    up: () => void (down = false),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a receiver down for longer than the deadline', () => {
  let env: DaemonEnv;
  let daemon: SentinelProcess | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeEach(async () => {
    env = await startDaemonEnv();
    receiver = await startReceiver();
    env.writeRule('rules.yaml', RULES);
    env.writeConfig();
    const config = readFileSync(env.configPath, 'utf8')
      .replace(env.slack.webhookUrl, receiver.url)
      .replace('min_interval: 10ms', `min_interval: ${MIN_INTERVAL_MS}ms, deadline: 4s`);
    writeFileSync(env.configPath, config);
  });
  afterEach(async () => {
    daemon?.kill('SIGKILL');
    await daemon?.exited;
    await receiver.close();
    await env.close();
  });

  it('dead-letters what outlived the deadline, loudly; delivers the rest once, in digests, paced', async ({
    onTestFailed,
  }) => {
    daemon = spawnSentinel(['run', '--config', env.configPath]);
    const d = daemon;
    onTestFailed(() => console.error(`${d.stdout()}\n${d.stderr()}`));
    const url = await d.httpUrl(30_000);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    // A steady rate while the receiver is down: each marker waits for the daemon's first attempt at it.
    for (let i = 0; i < MARKERS; i++) {
      const before = receiver.hits.length;
      env.ledger.ledger.inject({
        ...largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'),
        memo: `down-m${i}`,
        result: 'SUCCESS',
      });
      await until(async () => receiver.hits.length > before);
    }
    // Down until the first markers have been dead-lettered (their deadline passed at a failed attempt).
    await until(async () => d.stdout().includes('"msg":"notification dead-lettered"'));
    const upAt = performance.now();
    receiver.up();
    await until(async () => {
      const m = await metricsText(url);
      return metricSum(m, 'ledger_sentinel_outbox_depth') === 0;
    });
    const metrics = await metricsText(url);
    d.kill('SIGTERM');
    await d.exited;

    const db = new Database(join(env.dir, 'state', 'state.db'), { readonly: true });
    const rows = db
      .prepare("SELECT alert_id AS id, status FROM outbox_delivery WHERE rule_id = 'marker'")
      .all() as { id: string; status: string }[];
    db.close();
    const deadLogged = d
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"notification dead-lettered"'))
      .flatMap((l) => (JSON.parse(l) as { alertIds?: string[] }).alertIds ?? []);
    const sent = sentIds(d.stdout());
    const markerSent = sent.filter((id) => rows.some((r) => r.id === id));
    const after = receiver.hits.filter((h) => h.at >= upAt && h.status === 200);
    const span = (after.at(-1)?.at ?? 0) - (after[0]?.at ?? 0);
    const digests = d
      .stdout()
      .split('\n')
      .filter((l) => l.includes('"msg":"notification sent"'))
      .filter((l) => ((JSON.parse(l) as { alertIds?: string[] }).alertIds ?? []).length > 1).length;

    // Lost: none. Every marker fired one alert, and each is either sent once or dead-lettered, never both.
    expect(rows).toHaveLength(MARKERS);
    const dead = rows.filter((r) => r.status === 'dead').map((r) => r.id);
    const delivered = rows.filter((r) => r.status === 'sent').map((r) => r.id);
    expect(dead.length + delivered.length).toBe(MARKERS);
    expect(dead.length).toBeGreaterThan(0);
    expect(delivered.length).toBeGreaterThan(0);
    // Said and counted: every dead letter is in a log line with its id, and in the counter.
    expect(new Set(deadLogged)).toEqual(new Set(dead));
    expect(metricSum(metrics, 'ledger_sentinel_dead_letters_total')).toBe(dead.length);
    // Doubled: none; the delivered ones went out exactly once, and no dead one went out.
    expect(new Set(markerSent).size).toBe(markerSent.length);
    expect(new Set(markerSent)).toEqual(new Set(delivered));
    // Coalesced and paced: the catch-up used digests, at most one request per min_interval (counted over the
    // whole catch-up, one interval of slack: the pacer spaces departures, the network shifts arrivals).
    expect(digests).toBeGreaterThan(0);
    expect(after.length - 1).toBeLessThanOrEqual(Math.floor(span / MIN_INTERVAL_MS) + 1);
  }, 120_000);
});
