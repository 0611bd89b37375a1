// A local server that answers like Slack's Web API for chat.postMessage and chat.update, as Slack documents
// them: form-encoded or JSON arguments, the bot token in `Authorization: Bearer`, HTTP 200 with `ok:false` and
// an error code for every refusal (invalid_auth, channel_not_found, is_archived, not_in_channel,
// thread_not_found, message_not_found, cant_update_message), 429 with Retry-After when rate limited. It keeps the
// channel's messages: each post gets a new `ts`, a reply carries `thread_ts`, an update replaces the text of
// the message at `ts` in the channel given by id (chat.update takes no #name).
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

export const SLACK_API = {
  rateLimited: (seconds: number): SinkResponse => ({
    status: 429,
    headers: { 'retry-after': String(seconds), 'content-type': 'application/json' },
    body: JSON.stringify({ ok: false, error: 'ratelimited' }),
  }),
  error: (code: string): SinkResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ok: false, error: code }),
  }),
  serverError: { status: 500, body: 'internal error' } as SinkResponse,
} as const;

export interface SlackApiMessage {
  readonly channel: string;
  readonly ts: string;
  readonly text: string;
  readonly threadTs?: string;
  /** Every text the message had, oldest first (an update adds one). */
  readonly edits: string[];
  readonly args: Record<string, unknown>;
}

export interface SlackApiSink extends HttpSink {
  /** The api_url to configure (`…/api`). */
  readonly apiUrl: string;
  readonly token: string;
  /** Messages in posting order. */
  readonly messages: SlackApiMessage[];
  /** chat.update calls that succeeded, in order. */
  readonly updates: { channel: string; ts: string; text: string }[];
}

/** Channel ids known to the workspace: C0ALERTS (#alerts), C0ARCHIVED (archived), C0NOTIN (bot not a member). */
export async function startSlackApiSink(token = 'xoxb-0000-1111-slackSECRETtoken'): Promise<SlackApiSink> {
  const messages: SlackApiMessage[] = [];
  const updates: SlackApiSink['updates'] = [];
  let clock = 1_700_000_000;
  const ok = (body: Record<string, unknown>): SinkResponse => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ok: true, ...body }),
  });
  const sink = await startHttpSink((request) => {
    const args = argsOf(request);
    if (request.headers.authorization !== `Bearer ${token}`) return SLACK_API.error('invalid_auth');
    const channel = channelId(String(args.channel ?? ''));
    if (typeof channel !== 'string') return channel;
    const text = String(args.text ?? '');
    if (request.path === '/api/chat.postMessage') {
      const threadTs = args.thread_ts === undefined ? undefined : String(args.thread_ts);
      if (threadTs && !messages.some((m) => m.channel === channel && m.ts === threadTs))
        return SLACK_API.error('thread_not_found');
      const ts = `${clock++}.000100`;
      messages.push({ channel, ts, text, edits: [text], args, ...(threadTs ? { threadTs } : {}) });
      return ok({ channel, ts, message: { text, ts } });
    }
    if (request.path === '/api/chat.update') {
      if (String(args.channel).startsWith('#')) return SLACK_API.error('channel_not_found');
      const message = messages.find((m) => m.channel === channel && m.ts === String(args.ts));
      if (!message) return SLACK_API.error('message_not_found');
      message.edits.push(text);
      updates.push({ channel, ts: message.ts, text });
      return ok({ channel, ts: message.ts, text });
    }
    return { status: 404, body: 'unknown_method' };
  });
  return { ...sink, apiUrl: `${sink.origin}/api`, token, messages, updates };
}

function channelId(channel: string): string | SinkResponse {
  if (channel === 'C0ALERTS' || channel === '#alerts') return 'C0ALERTS';
  if (channel === 'C0ARCHIVED') return SLACK_API.error('is_archived');
  if (channel === 'C0NOTIN') return SLACK_API.error('not_in_channel');
  return SLACK_API.error('channel_not_found');
}

/** The method's arguments: form-encoded (what @slack/web-api sends; objects JSON-encoded) or JSON. */
function argsOf(request: RecordedRequest): Record<string, unknown> {
  const type = String(request.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) return JSON.parse(request.body) as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(request.body)) {
    args[key] = /^[[{]/.test(value) ? (JSON.parse(value) as unknown) : value;
  }
  return args;
}
