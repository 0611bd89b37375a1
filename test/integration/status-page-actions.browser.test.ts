// The status page as an on-call engineer uses it, in a real browser (Debian's chromium driven by playwright-core,
// no browser download), at desktop (1400 px) and phone (390 px) widths: nothing overflows sideways, the filters
// narrow the alerts, and silence and ack from the page work after logging in with the token — and are refused
// without a session, with a wrong CSRF token, or from another origin. With UPDATE_SCREENSHOTS=1 it writes the
// screenshots docs/operations.md shows. Skipped when chromium or playwright-core is missing, except in CI.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const TOKEN = 'page-token-3b7a';
const HBAR = 100_000_000n;
const required = process.env.CI === 'true';
const screenshots = process.env.UPDATE_SCREENSHOTS === '1';

interface Response {
  status(): number;
}
interface Locator {
  first(): Locator;
  count(): Promise<number>;
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  selectOption(value: string): Promise<unknown>;
  textContent(): Promise<string | null>;
  allTextContents(): Promise<string[]>;
  inputValue(): Promise<string>;
}
interface Page {
  goto(url: string): Promise<Response | null>;
  locator(selector: string): Locator;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  evaluate<T>(expression: string): Promise<T>;
  waitForURL(url: RegExp): Promise<void>;
  screenshot(options: { path: string; fullPage: boolean }): Promise<unknown>;
  url(): string;
  on(event: 'pageerror', fn: (err: Error) => void): void;
}
interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
  request: {
    post(
      url: string,
      options: { form: Record<string, string>; headers: Record<string, string>; maxRedirects: number },
    ): Promise<Response>;
  };
}
interface Playwright {
  chromium: {
    launchPersistentContext(
      dir: string,
      options: {
        executablePath: string;
        headless: boolean;
        args: string[];
        viewport: { width: number; height: number };
      },
    ): Promise<BrowserContext>;
  };
}

const playwright = await (import('playwright-core' as string) as Promise<Playwright>).catch(() => undefined);
const available = existsSync(CHROMIUM) && playwright !== undefined;

const RULES = `rules:
  - id: treasury-drain
    when: { memo: { contains: drain } }
    window: { duration: 10m, count: 1 }
    severity: critical
    summary: '{{account.name}}: suspicious memo {{memo}}'
    notify: [ops-slack]
  - id: ops-low-balance
    when: { memo: { contains: low-balance } }
    window: { duration: 10m, count: 1 }
    severity: warning
    summary: '{{account.name}} is running low'
    notify: [ops-slack]
  - id: short-blip
    when: { memo: { contains: blip } }
    window: { duration: 2s, count: 1 }
    severity: info
    summary: 'blip on {{account.name}}'
    notify: [ops-slack]
`;

describe.skipIf(!available && !required)('the status page in chromium, desktop and phone', () => {
  let env: DaemonEnv;
  let profile: string;
  beforeEach(async () => {
    env = await startDaemonEnv();
    const tokenFile = join(env.dir, 'api-token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    env.writeRule('page.yaml', RULES);
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    env.writeConfig(
      'silences:\n  - { rule: short-blip, ends_at: "2099-01-01T00:00:00Z", comment: "known flapping" }',
      { http: `api_token_file: ${tokenFile}` },
    );
    profile = mkdtempSync(join(tmpdir(), 'ledger-sentinel-chromium-'));
  });
  afterEach(async () => {
    await env.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('fits both widths, filters, and silences and acks from the page only with a session and its CSRF token', async () => {
    expect(playwright, 'playwright-core is required in CI: npm install -D playwright-core').toBeDefined();
    const run = env.run();
    const url = await httpUrlOf(run);
    // Injected after the first poll, so the tail's starting point is before the record.
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    const ledger = env.ledger.ledger;
    ledger.inject({ payer: '0.0.1003', memo: 'drain to 0.0.666', result: 'SUCCESS' });
    ledger.inject({ payer: '0.0.1004', memo: 'low-balance warning', result: 'SUCCESS' });
    ledger.inject({ payer: '0.0.1004', memo: 'blip', result: 'SUCCESS' });
    ledger.inject(largeDebit('0.0.1003', 5000n * HBAR));
    const matched = (rule: string) => metricValue(url, `ledger_sentinel_rule_matches_total{rule="${rule}"}`);
    for (const rule of ['treasury-drain', 'ops-low-balance', 'short-blip', 'large-debit'])
      await until(async () => ((await matched(rule)) ?? 0) >= 1);
    // The 2-second window of short-blip ends: its key shows once, resolved.
    await until(async () =>
      (await (await fetch(`${url}/api/v1/alerts?state=resolved`)).text()).includes('short-blip'),
    );

    const browser = await launch(profile);
    const errors: string[] = [];
    try {
      const page = await browser.newPage();
      page.on('pageerror', (err) => void errors.push(err.message));
      const overflow = () =>
        page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

      // Desktop: the firing alerts, the history with the resolved and the one-shot alert, nothing cut off.
      expect((await page.goto(`${url}/`))?.status()).toBe(200);
      expect(await overflow()).toBeLessThanOrEqual(0);
      const firing = await page.locator('#alerts article.alert').allTextContents();
      expect(firing.some((a) => a.includes('treasury-drain'))).toBe(true);
      expect(firing.some((a) => a.includes('short-blip'))).toBe(false);
      const states = await page.locator('#history td.state').allTextContents();
      expect(states.map((s) => s.trim())).toEqual(
        expect.arrayContaining(['firing', 'resolved', 'fired (one-shot)']),
      );

      // Filters: the form's GET parameters narrow both views.
      await page.locator('#filters select[name=severity]').selectOption('warning');
      await page.locator('#filters button').click();
      await page.waitForURL(/severity=warning/);
      await expect.poll(() => page.locator('#alerts article.alert').count()).toBe(1);
      const filtered = await page.locator('#alerts article.alert').allTextContents();
      expect(filtered[0]).toContain('ops-low-balance');
      await page.goto(`${url}/?rule=constructor`);
      expect(await page.locator('#alerts article.alert').count()).toBe(0);
      expect(await page.locator('#history tr.alert').count()).toBe(0);

      // Silence: without a session the form says to log in; the login takes the token.
      await page.goto(`${url}/`);
      await page.locator('article.alert.critical a[href*="silence="]').first().click();
      await page.locator('#action a[href="/login"]').click();
      await page.locator('#token').fill(TOKEN);
      await page.locator('#login button').click();
      await page.waitForURL(/\/$/);
      await page.locator('article.alert.critical a[href*="silence="]').first().click();
      expect(await page.locator('#silence-form textarea').inputValue()).toMatch(
        /^rule="(treasury-drain|large-debit)"/m,
      );
      const csrf = await page.locator('#silence-form input[name=csrf]').inputValue();
      await page.locator('#silence-form input[name=by]').fill('alice');
      await page.locator('#silence-form input[name=comment]').fill('investigating');
      await page.locator('#silence-form button').click();
      await page.waitForURL(/done=silenced/);
      expect(await page.locator('#done').textContent()).toContain('Silence created');
      expect((await page.locator('#alerts article.alert.critical').allTextContents()).join()).toContain(
        'investigating',
      );

      // Ack the warning.
      await page.locator('article.alert.warning a[href*="ack="]').click();
      await page.locator('#ack-form input[name=by]').fill('bob');
      await page.locator('#ack-form button').click();
      await page.waitForURL(/done=acked/);
      expect((await page.locator('article.alert.warning').first().textContent()) ?? '').toContain(
        'acked by bob',
      );

      // Refused: a wrong CSRF token, another origin, no session at all.
      const form = { matchers: 'rule="ops-low-balance"', hours: '1', by: 'mallory', comment: '' };
      const post = (fields: Record<string, string>, origin: string) =>
        browser.request.post(`${url}/actions/silence`, {
          form: fields,
          headers: { origin },
          maxRedirects: 0,
        });
      expect((await post({ ...form, csrf: 'forged' }, url)).status()).toBe(403);
      expect((await post({ ...form, csrf }, 'http://evil.example')).status()).toBe(403);
      const anonymous = await fetch(`${url}/actions/silence`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, csrf }).toString(),
      });
      expect(anonymous.status).toBe(401);
      const accepted = { ...form, by: 'carol', comment: 'top-up in progress', csrf };
      expect((await post(accepted, url)).status()).toBe(303);

      await page.goto(`${url}/?refresh=off`);
      expect(await overflow()).toBeLessThanOrEqual(0);
      if (screenshots) await page.screenshot({ path: 'docs/status-page.png', fullPage: true });

      // A narrow laptop window: still nothing cut off.
      await page.setViewportSize({ width: 800, height: 900 });
      await page.goto(`${url}/?refresh=off`);
      expect(await overflow()).toBeLessThanOrEqual(0);

      // Phone: the same page, no sideways scroll, the history as cards.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${url}/?refresh=off`);
      expect(await overflow()).toBeLessThanOrEqual(0);
      if (screenshots) await page.screenshot({ path: 'docs/status-page-phone.png', fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      run.abort();
      await run.done;
    }
  }, 90_000);
});

if (!available && !required)
  it.skip('status page browser test skipped: needs apt-get install chromium and npm install -D playwright-core', () => {});

function launch(profile: string): Promise<BrowserContext> {
  if (!playwright) throw new Error('playwright-core is missing: npm install -D playwright-core');
  return playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
}
