// Scenario 19: names from outside and every view of the data. The daemon runs with a write token and
// `http.api_read_auth: true`. With the token, silences are posted on names that only exist on Object.prototype
// (`constructor`, `__proto__`, `toString`, `hasOwnProperty`, `valueOf`, `prototype`), as regex and as equality
// matchers: none may be accepted, and a marker debit made afterwards must still be delivered (nothing silenced).
// Without the token, every view of the data (the status page and its pages, the quarantine, the JSON API) must
// refuse, while /healthz, /readyz and /metrics stay open; a browser login with the token opens the page, and a
// wrong token or a foreign Origin does not (docs/api.md, "Security").
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir } from '../bench/lib/sentinel-config.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack } from './lib/slack.js';

const SUITE = '19 names and views';
const TOKEN = 'chaos-names-and-views-token-0123456789';
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const DATA_VIEWS = [
  '/',
  '/?page=2',
  '/?rule=constructor',
  '/quarantine',
  '/api/v1/alerts',
  '/api/v1/silences',
  '/api/v1/alerts/constructor',
];
const OPEN_VIEWS = ['/healthz', '/readyz', '/metrics'];
const HBAR = 100_000_000n;

const RULE = `rules:
  - id: debit
    when: { debit: '1000 hbar' }
    summary: "debit {{memo}}"
    throttle: 0s
    notify: [ops-slack]
`;

/** Silence bodies on prototype names: a regex matching anything and an equality, for each name. */
function prototypeSilences(): unknown[] {
  const endsAt = new Date(Date.now() + 3_600_000).toISOString();
  return PROTOTYPE_NAMES.flatMap((name) => [
    { matchers: [{ name, value: '.+', isRegex: true }], endsAt, createdBy: 'chaos', comment: 'regex' },
    { matchers: [{ name, value: 'x' }], endsAt, createdBy: 'chaos', comment: 'equality' },
  ]);
}

async function postSilences(url: string): Promise<number[]> {
  const codes: number[] = [];
  for (const body of prototypeSilences()) {
    const response = await fetch(`${url}/api/v1/silences`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    codes.push(response.status);
    await response.arrayBuffer();
  }
  return codes;
}

async function statusOf(url: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${url}${path}`, { headers, redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}

/** POST /login with a token and an Origin; the session cookie, if the daemon set one. */
async function login(
  url: string,
  token: string,
  origin: string,
): Promise<{ status: number; cookie?: string }> {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
    redirect: 'manual',
  });
  await response.arrayBuffer();
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  return { status: response.status, ...(cookie ? { cookie } : {}) };
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const ledger = await startLivingLedger({ seed: 'chaos-names', tps: 10, lagMs: 300, autoAdvanceMs: 200 });
  const slack = await startChaosSlack();
  ctx.session.secrets.set('slack webhook token (names and views)', slack.token);
  ctx.session.secrets.set('API token (names and views)', TOKEN);
  const dir = sentinelDir();
  writeFileSync(
    dir.configPath,
    `ledger: { base_url: ${ledger.url} }
accounts:
  - { id: 0.0.1500, name: vault }
tail: { poll_interval: 300ms, overlap: 2s }
rules: { paths: [rules/*.yaml] }
notifiers:
  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }
state: { dir: ${join(dir.dir, 'state')} }
http: { host: 127.0.0.1, port: 0, api_token: ${TOKEN}, api_read_auth: true }
daemon: { watch_files: false }
`,
  );
  dir.writeRule('debit.yaml', RULE);
  const daemon = spawnSentinel(['run', '--config', dir.configPath]);
  try {
    const url = await daemon.httpUrl(30_000);
    await until(async () => (await statusOf(url, '/readyz')) === 200, 30_000);
    const codes = await postSilences(url);
    ledger.ledger.inject({
      payer: '0.0.1500',
      memo: 'names-marker',
      transfers: [
        { account: '0.0.1500', amount: -2_000n * HBAR },
        { account: '0.0.1001', amount: 2_000n * HBAR },
      ],
    });
    const delivered = await until(
      () => slack.accepted().some((b) => b.includes('names-marker')),
      30_000,
      100,
    );
    const views = await Promise.all(DATA_VIEWS.map((path) => statusOf(url, path)));
    const open = await Promise.all(OPEN_VIEWS.map((path) => statusOf(url, path)));
    const wrong = await login(url, `${TOKEN}-wrong`, url);
    const foreign = await login(url, TOKEN, 'http://attacker.example');
    const session = await login(url, TOKEN, url);
    const withSession = session.cookie
      ? await Promise.all(DATA_VIEWS.map((path) => statusOf(url, path, { cookie: session.cookie ?? '' })))
      : [];
    const openedBySession = withSession.filter((s) => s === 200 || s === 404).length;
    return [
      figure(SUITE, 'silences posted on prototype names', codes.length, {
        note: PROTOTYPE_NAMES.join(', '),
      }),
      checked(SUITE, 'of them accepted', codes.filter((c) => c < 300).length, '==', 0, {
        note: `answers ${[...new Set(codes)].join(', ')}`,
      }),
      checked(SUITE, 'marker debit delivered afterwards (nothing silenced)', delivered ? 1 : 0, '==', 1),
      checked(SUITE, 'data views answering without a token', views.filter((s) => s < 300).length, '==', 0, {
        note: `${DATA_VIEWS.length} views: ${views.join(', ')}`,
      }),
      checked(
        SUITE,
        'open views answering (health, readiness, metrics)',
        open.filter((s) => s === 200).length,
        '==',
        OPEN_VIEWS.length,
      ),
      checked(
        SUITE,
        'logins with a wrong token or a foreign Origin that set a session',
        [wrong, foreign].filter((l) => l.cookie).length,
        '==',
        0,
        {
          note: `answers ${wrong.status}, ${foreign.status}`,
        },
      ),
      checked(SUITE, 'data views a login session opens', openedBySession, '==', DATA_VIEWS.length, {
        note: `login ${session.status}; views ${withSession.join(', ')} (404: an alert id that does not exist)`,
      }),
    ];
  } finally {
    daemon.kill('SIGTERM');
    await daemon.exited;
    ctx.session.outputs.push({
      label: 'names and views daemon output',
      text: daemon.stdout() + daemon.stderr(),
    });
    await slack.close();
    await ledger.close();
    dir.remove();
  }
}

export const namesAndViews: Scenario = { n: 19, name: 'prototype names and one read-auth gate', run };
