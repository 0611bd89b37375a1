// The app's logger: every secret of the loaded config is scrubbed from every log line, and after a reload the
// new config's secrets are (docs/architecture.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './create-app.js';
import { loadAll, type Loaded } from './load-all.js';

describe('app logger', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-app-'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(
      join(dir, 'rules', 'r.yaml'),
      'rules:\n  - id: r\n    when: { result: fail }\n    summary: s\n',
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function load(token: string, rules = 'rules/*.yaml'): Loaded {
    writeFileSync(
      join(dir, 'config.yaml'),
      `ledger: { base_url: "http://127.0.0.1:9" }
rules: { paths: [${rules}] }
notifiers:
  ops: { kind: slack, webhook_url: "https://hooks.example.com/services/${token}" }
state: { dir: ${join(dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { watch_files: false }
`,
    );
    const result = loadAll(join(dir, 'config.yaml'), { env: {} });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.loaded;
  }

  it('scrubs the secrets of the current config from every line', async () => {
    const logs = new PassThrough();
    let text = '';
    logs.on('data', (d: Buffer) => (text += d.toString()));
    const app = createApp({
      loaded: load('FIRSTsecretTOKEN'),
      logDestination: logs,
      stdout: new PassThrough(),
    });

    app.log.warn({ note: 'hook https://hooks.example.com/services/FIRSTsecretTOKEN' }, 'leak attempt one');
    await app.reload(load('SECONDsecretTOKEN'));
    app.log.warn({ note: 'hook https://hooks.example.com/services/SECONDsecretTOKEN' }, 'leak attempt two');
    await app.stop({ graceMs: 0 });

    expect(text).toContain('leak attempt one');
    expect(text).toContain('leak attempt two');
    expect(text).not.toContain('FIRSTsecretTOKEN');
    expect(text).not.toContain('SECONDsecretTOKEN');
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(2);
  });

  it('stops exporting the series of a rule a reload removed, and keeps those of the rules still loaded', async () => {
    writeFileSync(
      join(dir, 'rules', 'q.yaml'),
      'rules:\n  - id: q\n    when: { result: fail }\n    summary: s\n',
    );
    const app = createApp({
      loaded: load('T'),
      logDestination: new PassThrough(),
      stdout: new PassThrough(),
    });
    await app.start();
    app.metrics.alerts.inc({ rule: 'q', severity: 'warning', status: 'firing' });
    app.metrics.alerts.inc({ rule: 'r', severity: 'warning', status: 'firing' });
    const series = async () => await app.metrics.registry.metrics();
    expect(await series()).toMatch(/rule_matches_total\{rule="q"\}/);

    await app.reload(load('T', 'rules/r.yaml'));
    const text = await series();
    await app.stop({ graceMs: 0 });

    expect(text).not.toMatch(/rule="q"/);
    expect(text).toMatch(/rule_matches_total\{rule="r"\} 0/);
    expect(text).toMatch(/alerts_total\{rule="r",severity="warning",status="firing"\} 1/);
  });
});
