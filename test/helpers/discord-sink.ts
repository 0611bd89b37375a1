// A local server that answers like a Discord channel webhook: `204` for an accepted message; `429` with
// `retry_after` (seconds) in its JSON body and a Retry-After header; `404 {"code":10015}` for an unknown webhook;
// `401 {"code":50027}` for a wrong token; `400 {"code":50035}` for a payload over Discord's limits (checked here:
// title 256, description 4096, 25 fields, 10 embeds, 6000 characters across embeds, content 2000).
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

const json = (status: number, body: unknown, headers: Record<string, string> = {}): SinkResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

export const DISCORD = {
  ok: { status: 204 },
  rateLimited: (seconds: number) =>
    json(
      429,
      { message: 'You are being rate limited.', retry_after: seconds, global: false },
      { 'retry-after': String(Math.ceil(seconds)) },
    ),
  unknownWebhook: json(404, { message: 'Unknown Webhook', code: 10015 }),
  invalidToken: json(401, { message: 'Invalid Webhook Token', code: 50027 }),
  invalidForm: json(400, { message: 'Invalid Form Body', code: 50035 }),
} as const;

interface Embed {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  footer?: { text: string };
}

export interface DiscordSink extends HttpSink {
  readonly webhookUrl: string;
  accepted(): { content?: string; embeds?: Embed[]; allowed_mentions?: unknown }[];
}

export async function startDiscordSink(token = 'discordTOKENsecretXXXX'): Promise<DiscordSink> {
  const path = `/api/webhooks/123456789012345678/${token}`;
  const sink = await startHttpSink((request) => validate(request, path));
  return {
    ...sink,
    webhookUrl: `${sink.origin}${path}`,
    accepted: () =>
      sink.requests.filter((r) => r.answer.status === 204).map((r) => JSON.parse(r.body) as never),
  };
}

function validate(request: RecordedRequest, path: string): SinkResponse {
  if (request.method !== 'POST' || request.path.split('?')[0] !== path) return DISCORD.unknownWebhook;
  let message: { content?: string; embeds?: Embed[] };
  try {
    message = JSON.parse(request.body) as typeof message;
  } catch {
    return DISCORD.invalidForm;
  }
  const embeds = message.embeds ?? [];
  if (!message.content && embeds.length === 0) return DISCORD.invalidForm;
  if ((message.content ?? '').length > 2000 || embeds.length > 10) return DISCORD.invalidForm;
  let total = 0;
  for (const e of embeds) {
    const fields = e.fields ?? [];
    if ((e.title ?? '').length > 256 || (e.description ?? '').length > 4096 || fields.length > 25)
      return DISCORD.invalidForm;
    if (fields.some((f) => f.name.length > 256 || f.value.length > 1024 || !f.value))
      return DISCORD.invalidForm;
    total += (e.title ?? '').length + (e.description ?? '').length + (e.footer?.text.length ?? 0);
    total += fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  }
  return total > 6000 ? DISCORD.invalidForm : DISCORD.ok;
}
