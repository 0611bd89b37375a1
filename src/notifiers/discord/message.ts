// Alert → Discord webhook payload (pure): one embed per alert (at most 10), coloured by severity or green for a
// resolve, with Discord's limits kept (title 256, description 4096, 25 fields of 256/1024, footer 2048, 6000
// characters across the embeds, content 2000). `allowed_mentions: {parse: []}` so no memo can ping anyone.
import type { Alert } from '../../rules/alert/alert.js';
import {
  accountLabel,
  alertHeadline,
  contextLine,
  explanationFields,
  firstN,
  isResolvedNotification,
  notificationSeverity,
  notificationTitle,
  recordFields,
  triggerRecord,
} from '../format.js';
import { idempotencyKey } from '../identity.js';
import { notificationAlerts, type Notification } from '../notifier.js';
import { presentNotification } from '../present.js';
import { capDiscord, discordUrl, escapeDiscord } from './escape.js';

export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  total: 6000,
} as const;

export const DISCORD_COLORS = {
  resolved: 0x2eb886,
  critical: 0xd00000,
  warning: 0xdaa038,
  info: 0x439fe0,
} as const;

export interface DiscordEmbed {
  readonly title: string;
  readonly description?: string;
  readonly url?: string;
  readonly color: number;
  readonly fields: { name: string; value: string; inline: boolean }[];
  readonly timestamp?: string;
  readonly footer: { text: string };
}

export interface DiscordPayload {
  readonly content: string;
  readonly embeds: DiscordEmbed[];
  readonly allowed_mentions: { readonly parse: [] };
  readonly username?: string;
}

export function discordMessage(input: Notification, maxListed: number, username?: string): DiscordPayload {
  const notification = presentNotification(input);
  const alerts = notificationAlerts(notification);
  const severity = notificationSeverity(notification);
  const resolved = isResolvedNotification(notification);
  const status = resolved ? 'RESOLVED' : severity.toUpperCase();
  const ref = idempotencyKey(input).slice(0, 12);
  const { shown, more } = firstN(alerts, Math.min(maxListed, DISCORD_LIMITS.embeds));
  const embeds: DiscordEmbed[] = [];
  let omitted = more;
  for (const alert of shown) {
    const embed = embeds.length ? alertEmbed(alert, ref) : fitted(alertEmbed(alert, ref));
    if (embedsSize([...embeds, embed]) > DISCORD_LIMITS.total) omitted += 1;
    else embeds.push(embed);
  }
  const extra = omitted > 0 ? `\nand ${omitted} more` : '';
  const content = `**${status}**: ${escapeDiscord(notificationTitle(notification))}`;
  return {
    content: `${capDiscord(content, DISCORD_LIMITS.content - extra.length)}${extra}`,
    embeds,
    allowed_mentions: { parse: [] },
    ...(username ? { username } : {}),
  };
}

function alertEmbed(alert: Alert, ref: string): DiscordEmbed {
  const status = alert.status === 'resolved' ? 'RESOLVED' : alert.severity.toUpperCase();
  const record = triggerRecord(alert);
  const facts: [string, string][] = [['Rule', alert.ruleId]];
  const account = accountLabel(alert);
  if (account) facts.push(['Account', account]);
  if (record) facts.push(...recordFields(record));
  const fields = facts.slice(0, DISCORD_LIMITS.fields).map(([name, value]) => ({
    name: capDiscord(escapeDiscord(name), DISCORD_LIMITS.fieldName),
    value: capDiscord(escapeDiscord(value), DISCORD_LIMITS.fieldValue),
    inline: name !== 'Token',
  }));
  const lines = [escapeDiscord(alert.description)];
  for (const [label, value] of explanationFields(alert)) lines.push(`**${label}:** ${escapeDiscord(value)}`);
  if (record?.memo) lines.push(`**Memo:** ${escapeDiscord(record.memo)}`);
  const description = capDiscord(lines.filter(Boolean).join('\n'), 2500);
  const url = discordUrl(record?.explorerUrl);
  const time = alert.status === 'resolved' ? (alert.endsAt ?? alert.startsAt) : alert.startsAt;
  return {
    title: capDiscord(`${status}: ${escapeDiscord(alertHeadline(alert))}`, DISCORD_LIMITS.title),
    ...(description ? { description } : {}),
    ...(url ? { url } : {}),
    color: alert.status === 'resolved' ? DISCORD_COLORS.resolved : DISCORD_COLORS[alert.severity],
    fields,
    ...(Number.isNaN(Date.parse(time)) ? {} : { timestamp: new Date(Date.parse(time)).toISOString() }),
    footer: { text: capDiscord(`${escapeDiscord(contextLine(alert))} · ref ${ref}`, 500) },
  };
}

/** The first embed always goes: fields dropped, then the description cut, until it fits the total. */
function fitted(embed: DiscordEmbed): DiscordEmbed {
  const fields = [...embed.fields];
  while (fields.length && embedsSize([{ ...embed, fields }]) > DISCORD_LIMITS.total) fields.pop();
  const rest = DISCORD_LIMITS.total - embedsSize([{ ...embed, fields, description: '' }]);
  const description = capDiscord(embed.description ?? '', Math.max(1, rest));
  return { ...embed, fields, ...(description ? { description } : {}) };
}

/** The characters Discord counts towards its 6000 across embeds. */
export function embedsSize(embeds: readonly DiscordEmbed[]): number {
  let size = 0;
  for (const e of embeds) {
    size += e.title.length + (e.description?.length ?? 0) + e.footer.text.length;
    for (const f of e.fields) size += f.name.length + f.value.length;
  }
  return size;
}
