import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpSink } from '../../../test/helpers/http-sink.js';
import { createPacers } from '../../delivery/pacer.js';
import { testAlert, testAlerts } from '../../../test/helpers/alerts.js';
import {
  ALERTMANAGER_TESTS_RUN,
  alertmanagerBinary,
  startAlertmanager,
  type AlertmanagerProcess,
} from '../../../test/helpers/alertmanager-process.js';
import { testClock } from '../../../test/helpers/clock.js';
import { captureLogs } from '../../../test/helpers/log-capture.js';
import { alertmanager } from './alertmanager.js';
import { alertmanagerAlerts, labelName } from './message.js';

const NOW = '2026-01-01T00:00:00.000Z';

function create(url: string, extra: Record<string, unknown> = {}) {
  const clock = testClock(Date.parse(NOW));
  const config = alertmanager.config.parse({ kind: 'alertmanager', url, ...extra });
  return alertmanager.create('am', config, {
    now: clock.now,
    sleep: clock.sleep,
    pacers: createPacers(clock),
    logger: captureLogs().logger,
    stdout: process.stdout,
  });
}

describe('alertmanagerAlerts (API v2 PostableAlerts)', () => {
  it('maps an alert to labels, annotations, startsAt and a generator URL', () => {
    const [postable] = alertmanagerAlerts({ kind: 'single', alert: testAlert() }, NOW);

    expect(postable).toEqual({
      labels: {
        team: 'treasury',
        alertname: 'large-debit',
        severity: 'critical',
        alert_key: 'large-debit/0.0.1234',
        account: '0.0.1234',
        account_name: 'treasury-hot',
      },
      annotations: {
        summary: 'Large debit on treasury-hot',
        description: 'treasury-hot sent more than 1 HBAR',
        account: 'treasury-hot (0.0.1234)',
        transaction_id: '0.0.1234-1700000000-000000001',
        amount: '-1.5 HBAR (-150000000 tinybars)',
        memo: 'payroll',
        explorer_url: 'https://hashscan.io/mainnet/transaction/1700000000.123456789',
      },
      startsAt: '2023-11-14T22:13:01.000Z',
      generatorURL: 'https://hashscan.io/mainnet/transaction/1700000000.123456789',
    });
  });

  it('gives resolved alerts an endsAt', () => {
    const alert = testAlert({ status: 'resolved', endsAt: '2023-11-14T23:00:00.000Z' });

    const [postable] = alertmanagerAlerts({ kind: 'single', alert }, NOW);

    expect(postable?.endsAt).toBe('2023-11-14T23:00:00.000Z');
  });

  it('posts every alert of a digest', () => {
    const postables = alertmanagerAlerts(
      { kind: 'digest', ruleId: 'large-debit', alerts: testAlerts(3) },
      NOW,
    );

    expect(postables).toHaveLength(3);
  });

  it.each([
    ['team', 'team'],
    ['cost-center', 'cost_center'],
    ['1st', '_1st'],
  ])('label name %s → %s', (key, expected) => {
    expect(labelName(key)).toBe(expected);
  });
});

describe('alertmanager notifier against a local HTTP server', () => {
  it('POSTs to /api/v2/alerts with the bearer token', async () => {
    const sink = await startHttpSink();
    const notifier = create(`${sink.origin}/`, { bearer_token: 'am-token-123456' });

    await notifier.send({ kind: 'single', alert: testAlert() }, new AbortController().signal);

    const [request] = await sink.waitForRequests(1);
    await sink.close();
    expect(request?.path).toBe('/api/v2/alerts');
    expect(request?.headers.authorization).toBe('Bearer am-token-123456');
    expect(JSON.parse(request?.body ?? '')).toHaveLength(1);
  });
});

describe.skipIf(!ALERTMANAGER_TESTS_RUN)(
  'alertmanager notifier against a real Alertmanager (apt: prometheus-alertmanager)',
  () => {
    let am: AlertmanagerProcess;
    beforeAll(async () => {
      am = await startAlertmanager(alertmanagerBinary());
    });
    afterAll(() => am?.stop());

    async function activeAlerts(): Promise<
      { labels: Record<string, string>; annotations: Record<string, string>; generatorURL: string }[]
    > {
      const response = await fetch(`${am.url}/api/v2/alerts?active=true`);
      return (await response.json()) as never;
    }

    it('accepts the alert and serves it back with labels, annotations and generator URL; a resolve ends it', async () => {
      const alert = testAlert({ startsAt: new Date(Date.now() - 60_000).toISOString() });
      const notifier = create(am.url);

      await notifier.send({ kind: 'single', alert }, new AbortController().signal);
      const firing = await activeAlerts();
      await notifier.send(
        {
          kind: 'single',
          alert: {
            ...alert,
            id: 'resolved',
            status: 'resolved',
            endsAt: new Date(Date.now() - 1000).toISOString(),
          },
        },
        new AbortController().signal,
      );
      const after = await activeAlerts();

      expect(firing).toHaveLength(1);
      expect(firing[0]?.labels).toMatchObject({
        alertname: 'large-debit',
        severity: 'critical',
        account: '0.0.1234',
      });
      expect(firing[0]?.annotations).toMatchObject({
        summary: 'Large debit on treasury-hot',
        memo: 'payroll',
      });
      expect(firing[0]?.generatorURL).toBe('https://hashscan.io/mainnet/transaction/1700000000.123456789');
      expect(after).toHaveLength(0);
    });

    it('rejects an invalid alert permanently (400)', async () => {
      const notifier = create(am.url);
      const alert = testAlert({ startsAt: 'not-a-time' });

      const error = await notifier
        .send({ kind: 'single', alert }, new AbortController().signal)
        .catch((e: unknown) => e);

      expect(error).toMatchObject({ retryable: false, reason: 'http_400' });
    });
  },
);

if (!ALERTMANAGER_TESTS_RUN)
  it.skip('real Alertmanager test skipped: prometheus-alertmanager is not installed (apt-get install prometheus-alertmanager)', () => {});
