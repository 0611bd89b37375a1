// The status page in a real browser (Debian's chromium driven by playwright-core, no browser download): the daemon
// runs against the simulator, a rule fires on an injected record whose memo is hostile markup, and the page at `/`
// loads with no console error, shows the firing alert with its silence, and shows the memo as text: no element,
// no script, no dialog comes out of it. Skipped when chromium or playwright-core is missing, except in CI.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpUrlOf, metricValue, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const CHROMIUM = '/usr/bin/chromium';
const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';
const required = process.env.CI === 'true';
const MATCHES = 'ledger_sentinel_rule_matches_total{rule="hostile-memo"}';

/** The part of playwright-core this test uses (imported by name at run time: a devDependency). */
interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}
interface Page {
  on(event: 'console', fn: (msg: { type(): string; text(): string }) => void): void;
  on(event: 'pageerror', fn: (err: Error) => void): void;
  on(event: 'dialog', fn: (dialog: { message(): string; dismiss(): Promise<void> }) => void): void;
  goto(url: string): Promise<{ status(): number } | null>;
  locator(selector: string): Locator;
}
interface Locator {
  first(): Locator;
  locator(selector: string): Locator;
  count(): Promise<number>;
  allTextContents(): Promise<string[]>;
}
interface Playwright {
  chromium: {
    launchPersistentContext(
      userDataDir: string,
      options: { executablePath: string; headless: boolean; args: string[] },
    ): Promise<BrowserContext>;
  };
}

async function loadPlaywright(): Promise<Playwright | undefined> {
  const name = 'playwright-core';
  return (import(name) as Promise<Playwright>).catch(() => undefined);
}

const playwright = await loadPlaywright();
const available = existsSync(CHROMIUM) && playwright !== undefined;

const RULE = `rules:
  - id: hostile-memo
    when: { memo: { contains: onerror } }
    window: { duration: 10m, count: 1 }
    severity: critical
    summary: '{{account.name}} memo {{memo}}'
    notify: [ops-slack]
`;

describe.skipIf(!available && !required)('the status page in chromium', () => {
  let env: DaemonEnv;
  let profile: string;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('hostile-memo.yaml', RULE);
    env.writeConfig(
      `silences:\n  - { rule: hostile-memo, ends_at: "2099-01-01T00:00:00Z", comment: "<b>drill</b> by ops" }`,
    );
    profile = mkdtempSync(join(tmpdir(), 'ledger-sentinel-chromium-'));
  });
  afterEach(async () => {
    await env.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('loads without console errors, shows the firing alert and its silence, and the hostile memo as text', async () => {
    expect(playwright, 'playwright-core is required in CI: npm install -D playwright-core').toBeDefined();
    expect(existsSync(CHROMIUM), 'chromium is required in CI: apt-get install chromium').toBe(true);
    const run = env.run();
    const url = await httpUrlOf(run);
    // Injected after the first poll, so the tail's starting point is before the record.
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.ledger.ledger.inject({ payer: '0.0.1003', memo: HOSTILE });
    // Committed with the alert in one transaction: the page shows it from then on.
    await until(async () => ((await metricValue(url, MATCHES)) ?? 0) >= 1);
    const browser = await launch(profile);
    const errors: string[] = [];
    const dialogs: string[] = [];
    try {
      const page = await browser.newPage();
      page.on('console', (msg) => void (msg.type() === 'error' && errors.push(msg.text())));
      page.on('pageerror', (err) => void errors.push(err.message));
      page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));

      const response = await page.goto(`${url}/`);
      const firing = await page.locator('#alerts article.alert').allTextContents();
      const memos = await page.locator('#alerts article .memo').allTextContents();
      const injected = {
        img: await page.locator('img').count(),
        script: await page.locator('script').count(),
        bold: await page.locator('b').count(),
      };
      const silences = await page.locator('#silences td').allTextContents();

      expect(response?.status()).toBe(200);
      expect(errors).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(firing.some((row) => row.includes('hostile-memo') && row.includes('silenced'))).toBe(true);
      expect(memos).toContain(HOSTILE);
      expect(injected).toEqual({ img: 0, script: 0, bold: 0 });
      expect(silences).toContain('<b>drill</b> by ops');
    } finally {
      await browser.close();
      run.abort();
      await run.done;
    }
  }, 60_000);
});

if (!available && !required)
  it.skip('status page browser test skipped: needs apt-get install chromium and npm install -D playwright-core', () => {});

/** A fresh profile (user data dir) each run; no network beyond the page, no sandbox (containers). */
function launch(profile: string): Promise<BrowserContext> {
  if (!playwright) throw new Error('playwright-core is missing: npm install -D playwright-core');
  return playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
