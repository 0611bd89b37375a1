// Scenario 4: the SMTP server goes down (connections refused) for 60 s (--quick: 20 s) while markers keep
// coming, then comes back on the same port. Lost 0, duplicates 0 (Message-IDs are derived from the alert ids, so
// a resend would be recognisable).
import { checked, figure, round, type Figure } from '../bench/lib/figures.js';
import { lostAlerts } from './lib/markers.js';
import { runMarkers } from './lib/marker-run.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { emailNotifier, mailBodies, startChaosSmtp } from './lib/smtp.js';

const SUITE = '4 SMTP outage';

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const smtp = await startChaosSmtp();
  ctx.session.secrets.set('SMTP password', smtp.password);
  const before = 8_000;
  const outageMs = ctx.quick ? 20_000 : 60_000;
  const markers = ctx.quick ? 30 : 80;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-smtp', tps: 100, lagMs: 500 },
    watched: 20,
    markers,
    ruleNotifiers: ['ops-mail'],
    config: { notifiers: emailNotifier('ops-mail', smtp) },
  });
  try {
    await rig.start();
    let downAt = 0;
    let upAt = 0;
    await runMarkers(rig, {
      durationMs: before + outageMs + 8_000,
      markers,
      async tick(elapsed) {
        if (!downAt && elapsed >= before) {
          downAt = Date.now();
          await smtp.down();
        }
        if (!upAt && elapsed >= before + outageMs) {
          upAt = Date.now();
          await smtp.up();
        }
      },
    });
    const result = await rig.settle(ctx.quick ? 120_000 : 240_000, () => mailBodies(smtp));
    const ids = smtp.messages.map((m) => m.messageId ?? '');
    return [
      figure(SUITE, 'outage', round(outageMs / 1000, 0), { unit: 's' }),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '==', 0),
      checked(SUITE, 'repeated Message-IDs', ids.length - new Set(ids).size, '==', 0),
    ];
  } finally {
    await rig.close();
    await smtp.close();
  }
}

export const smtpOutage: Scenario = { n: 4, name: 'SMTP server down, then back', run };
