// Alert → readable console lines (pure). Control characters in ledger text are made visible so a memo cannot
// move the cursor, clear the screen or forge extra lines.
import {
  accountLabel,
  explanationFields,
  firstN,
  isResolvedNotification,
  notificationTitle,
  otherRecords,
  recordFields,
  triggerRecord,
} from '../format.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';

export function consoleLines(input: Notification, maxListed: number): string[] {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const title = clean(notificationTitle(notification));
  const lines = [
    isResolvedNotification(notification)
      ? `RESOLVED ${title}`
      : `[${alerts[0]?.severity.toUpperCase() ?? 'INFO'}] ${title}`,
  ];
  const { shown, more } = firstN(alerts, maxListed);
  for (const alert of shown) {
    const parts = [alert.status, clean(alert.ruleId), clean(accountLabel(alert) ?? '')].filter(Boolean);
    if (notification.kind === 'digest') parts.push(clean(alert.summary));
    const record = triggerRecord(alert);
    if (record) parts.push(...recordFields(record).map(([k, v]) => `${k.toLowerCase()}=${clean(v)}`));
    if (record?.memo) parts.push(`memo=${JSON.stringify(record.memo)}`);
    lines.push(`  ${parts.join(' ')}`);
    for (const [k, v] of explanationFields(alert)) lines.push(`    ${k.toLowerCase()}: ${clean(v)}`);
    const others = otherRecords(alert);
    if (others.length) lines.push(`    also in the window: ${others.length} more records`);
  }
  if (more > 0) lines.push(`  and ${more} more`);
  return lines;
}

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function clean(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
