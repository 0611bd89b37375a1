// Scenario 7: every secret used in the run — Slack webhook token, SMTP password, webhook URL token and signing
// key, verification API key — is searched for in every log line and metrics exposition: this scenario's daemon
// (debug logging, with Slack, SMTP and the webhook receiver failing part of the time), `check` on a config with
// an error next to a secret, and the outputs of every scenario that ran before it. 0 occurrences.
import { writeFileSync } from 'node:fs';
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { spawnSentinel } from '../bench/lib/daemon-process.js';
import { startHttpSink } from '../test/helpers/http-sink.js';
import { runMarkers } from './lib/marker-run.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { emailNotifier, startChaosSmtp } from './lib/smtp.js';

const SUITE = '7 secrets';

export function occurrences(text: string, secret: string): number {
  let n = 0;
  for (let i = text.indexOf(secret); i !== -1; i = text.indexOf(secret, i + 1)) n += 1;
  return n;
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const smtp = await startChaosSmtp();
  const hookToken = `chaosHOOKtoken${Math.random().toString(36).slice(2, 12)}`;
  const signingKey = `chaosSIGNkey${Math.random().toString(36).slice(2, 12)}`;
  const apiKey = `chaosAPIkey${Math.random().toString(36).slice(2, 12)}`;
  let hookDown = false;
  const hook = await startHttpSink(() =>
    hookDown ? { status: 500, body: `echo ${hookToken}` } : { status: 200, body: 'ok' },
  );
  ctx.session.secrets.set('SMTP password (secrets run)', smtp.password);
  ctx.session.secrets.set('webhook URL token', hookToken);
  ctx.session.secrets.set('webhook signing key', signingKey);
  ctx.session.secrets.set('verification API key', apiKey);
  const markers = ctx.quick ? 12 : 40;
  const durationMs = ctx.quick ? 24_000 : 90_000;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-secrets', tps: 50, lagMs: 500, faults: undefined },
    watched: 10,
    markers,
    ruleNotifiers: ['ops-slack', 'ops-mail', 'siem'],
    config: {
      extra: `log: { level: debug }\nverification: { base_url: http://127.0.0.1:9, chain_id: "295", api_key: ${apiKey} }`,
    },
  });
  const slackLine = `  ops-slack: { kind: slack, webhook_url: ${rig.slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }`;
  rig.dir.writeConfig({
    ledgerUrl: rig.ledger.url,
    accounts: Array.from({ length: 10 }, (_, i) => `0.0.${1001 + i}`),
    notifiers: `${slackLine}\n${emailNotifier('ops-mail', smtp)}\n  siem: { kind: webhook, url: ${hook.origin}/hook/${hookToken}, signing_key: ${signingKey}, group_wait: 0s }`,
    extra: `log: { level: debug }\nverification: { base_url: http://127.0.0.1:9, chain_id: "295", api_key: ${apiKey} }`,
  });
  try {
    await rig.start();
    await runMarkers(rig, {
      durationMs,
      markers,
      async tick(elapsed) {
        const failing = elapsed > durationMs / 3 && elapsed < (2 * durationMs) / 3;
        if (failing !== hookDown) {
          hookDown = failing;
          rig.slack.setDown(failing);
          await (failing ? smtp.down() : smtp.up());
        }
      },
    });
    await rig.settle(60_000);
    // `check` on a config whose error sits next to the secrets.
    const broken = `${rig.dir.configPath}.broken.yaml`;
    writeFileSync(
      broken,
      `notifiers:\n${slackLine}\n  mail: { kind: email, host: 127.0.0.1, password: ${smtp.password}, username: u, from: a@b, to: [x], prot: 25 }\n`,
    );
    const check = spawnSentinel(['check', '--config', broken]);
    await check.exited;
    ctx.session.outputs.push({ label: 'check of a broken config', text: check.stdout() + check.stderr() });
  } finally {
    await rig.close();
    await smtp.close();
    await hook.close();
  }
  const outputs = ctx.session.outputs;
  const found: string[] = [];
  for (const [label, secret] of ctx.session.secrets)
    for (const output of outputs)
      if (occurrences(output.text, secret) > 0) found.push(`${label} in ${output.label}`);
  const bytes = outputs.reduce((n, o) => n + o.text.length, 0);
  const control = occurrences(`x ${rig.slack.webhookUrl} y`, rig.slack.token);
  return [
    figure(SUITE, 'secrets searched', ctx.session.secrets.size),
    figure(SUITE, 'outputs searched (logs, metrics, check)', outputs.length, {
      note: `${Math.round(bytes / 1024)} KiB`,
    }),
    checked(SUITE, 'control: a secret in text is found', control, '==', 1),
    checked(
      SUITE,
      'secret occurrences',
      found.length,
      '==',
      0,
      found.length ? { note: found.slice(0, 3).join('; ') } : {},
    ),
  ];
}

export const secrets: Scenario = { n: 7, name: 'no secret in logs or metrics', run };
