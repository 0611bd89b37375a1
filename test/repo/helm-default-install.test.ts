// `helm install` with the default values must start, be ready and say what to do next (issue: a default install
// crash-looped on a rules pattern that matched no file). The chart is rendered with its defaults, the config and
// rule files the pod would mount are written to a folder (mount paths moved under it, the query service pointed
// at the living ledger on 127.0.0.1), and `ledger-sentinel run` starts on them in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { buildRenderer, findGo } from '../../helm/tools/build-renderer.js';
import { renderChart } from '../../helm/tools/render-chart.js';
import { writePodFiles, type PodFiles } from '../../helm/tools/rendered-config.js';
import { startCli, type CliRun } from '../integration/cli-harness.js';
import { httpUrlOf, until } from '../integration/daemon-harness.js';

const goMissing = findGo(process.env) === undefined && process.env.CI !== 'true';

describe.skipIf(goMissing)('a default helm install', () => {
  let ledger: RunningLivingLedger;
  let files: PodFiles;
  let daemon: CliRun;
  let url: string;

  beforeAll(async () => {
    ledger = await startLivingLedger({ seed: 'default-install', tps: 5, lagMs: 300, autoAdvanceMs: 200 });
    const rendered = renderChart({ binary: buildRenderer({ env: process.env }) });
    const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-default-install-'));
    files = writePodFiles(rendered, {
      dir,
      edit: (config) => {
        (config.ledger as Record<string, unknown>).base_url = ledger.url;
        // Besides the query service, only what the pod gets from Kubernetes differs: its volume and its port.
        config.state = { dir: join(dir, 'state') };
        config.http = { host: '127.0.0.1', port: 0 };
      },
    });
    daemon = startCli(['run', '--config', files.configPath], { env: files.env });
    url = await httpUrlOf(daemon);
  }, 180_000);

  afterAll(async () => {
    daemon?.abort();
    await daemon?.done;
    await ledger?.close();
    if (files) rmSync(files.dir, { recursive: true, force: true });
  });

  it('starts and becomes ready', async () => {
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    const body = (await (await fetch(`${url}/readyz`)).json()) as { ready: boolean };
    expect(body.ready).toBe(true);
  });

  it('says in the log that no rule is enabled and what to do about it', async () => {
    await daemon.waitFor((out) => out.includes('No rule is enabled'));

    const line = daemon
      .stdout()
      .split('\n')
      .find((l) => l.includes('No rule is enabled'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 40 });
    expect(line).toContain('rules.files');
  });

  it('says the same at the top of the status page, with the next steps', async () => {
    const page = await (await fetch(`${url}/`)).text();

    const notices = /<section id="notices"[^>]*>([\s\S]*?)<\/section>/.exec(page)?.[1] ?? '';
    expect(notices).toContain('No rule is enabled');
    expect(notices).toContain('No account is watched');
    expect(notices).toContain('No notifier is configured');
  });
});
