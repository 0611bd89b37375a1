// Alert → readable console lines (pure). Control characters in ledger text are made visible so a memo cannot
// move the cursor, clear the screen or forge extra lines.
import { accountLabel, firstN, notificationTitle, recordFields } from '../format.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';

export function consoleLines(input: Notification, maxListed: number): string[] {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const lines = [
    `[${alerts[0]?.severity.toUpperCase() ?? 'INFO'}] ${clean(notificationTitle(notification))}`,
  ];
  const { shown, more } = firstN(alerts, maxListed);
  for (const alert of shown) {
    const parts = [alert.status, clean(alert.ruleId), clean(accountLabel(alert) ?? '')].filter(Boolean);
    if (notification.kind === 'digest') parts.push(clean(alert.summary));
    const record = alert.records[0];
    if (record) parts.push(...recordFields(record).map(([k, v]) => `${k.toLowerCase()}=${clean(v)}`));
    if (record?.memo) parts.push(`memo=${JSON.stringify(record.memo)}`);
    lines.push(`  ${parts.join(' ')}`);
  }
  if (more > 0) lines.push(`  and ${more} more`);
  return lines;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function clean(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
