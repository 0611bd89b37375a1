// `run --dry-run`: every channel keeps its name, grouping, deadline and kind, but its notifier only logs what it
// would send (`would send`, one line per notification, with each alert's id, status, severity and summary as
// every medium would show it) and reports success. Nothing reaches a receiver; the outbox the dry run marks as
// sent lives in its own in-memory state store, which a real run never reads.
import type { Logger } from '../observability/logger.js';
import { notificationAlerts, type Notifier } from '../notifiers/notifier.js';
import { presentAlert } from '../notifiers/present.js';
import type { Channel } from './channels.js';

export function dryRunChannels(channels: ReadonlyMap<string, Channel>, logger: Logger): Map<string, Channel> {
  const log = logger.child({ component: 'dry-run' });
  const out = new Map<string, Channel>();
  for (const [name, channel] of channels)
    out.set(name, { ...channel, notifier: dryRunNotifier(channel.notifier, log) });
  return out;
}

function dryRunNotifier(real: Notifier, log: Logger): Notifier {
  return {
    name: real.name,
    kind: real.kind,
    send(notification) {
      const alerts = notificationAlerts(notification).map(presentAlert);
      log.info(
        {
          notifier: real.name,
          kind: real.kind,
          notification: notification.kind,
          alerts: alerts.map((a) => ({
            id: a.id,
            key: a.key,
            status: a.status,
            severity: a.severity,
            summary: a.summary,
          })),
        },
        'would send',
      );
      return Promise.resolve({ answer: 'dry run: not sent' });
    },
  };
}
