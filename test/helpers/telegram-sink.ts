// A local server that answers like the Telegram Bot API's sendMessage: `{ok:true,result:{message_id}}`; for a
// wrong token `401 Unauthorized`; an unknown chat `400 Bad Request: chat not found`; a bot removed from the chat
// `403 Forbidden: bot was kicked`; flood control `429` with `parameters.retry_after`; a group that became a
// supergroup `400` with `parameters.migrate_to_chat_id`. It also parses the HTML like Telegram does (only the
// documented tags, `&`, `<`, `>` as entities) and refuses text over 4,096 characters after entity parsing.
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

const reply = (status: number, body: Record<string, unknown>): SinkResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(status === 200 ? { ok: true, ...body } : { ok: false, error_code: status, ...body }),
});

export const TELEGRAM = {
  unauthorized: reply(401, { description: 'Unauthorized' }),
  chatNotFound: reply(400, { description: 'Bad Request: chat not found' }),
  kicked: reply(403, { description: 'Forbidden: bot was kicked from the supergroup chat' }),
  flood: (seconds: number) =>
    reply(429, {
      description: `Too Many Requests: retry after ${seconds}`,
      parameters: { retry_after: seconds },
    }),
  migrated: (to: number) =>
    reply(400, {
      description: 'Bad Request: group chat was upgraded to a supergroup chat',
      parameters: { migrate_to_chat_id: to },
    }),
  serverError: reply(502, { description: 'Bad Gateway' }),
} as const;

const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-spoiler',
]);

export interface TelegramSink extends HttpSink {
  readonly apiUrl: string;
  /** The messages accepted, with their text as Telegram shows it (tags removed, entities decoded). */
  accepted(): { chat_id: string; message_thread_id?: number; text: string; shown: string }[];
}

export async function startTelegramSink(token: string, chatId = '-1001234567890'): Promise<TelegramSink> {
  let nextId = 1;
  const sink = await startHttpSink((request) => {
    const answer = validate(request, token, chatId);
    return answer ?? reply(200, { result: { message_id: nextId++, chat: { id: Number(chatId) } } });
  });
  return {
    ...sink,
    apiUrl: sink.origin,
    accepted: () =>
      sink.requests
        .filter((r) => r.answer.status === 200)
        .map((r) => {
          const body = JSON.parse(r.body) as { chat_id: string; message_thread_id?: number; text: string };
          return { ...body, shown: shownText(body.text) ?? '' };
        }),
  };
}

function validate(request: RecordedRequest, token: string, chatId: string): SinkResponse | undefined {
  if (request.path !== `/bot${token}/sendMessage`) return TELEGRAM.unauthorized;
  const body = JSON.parse(request.body) as { chat_id?: unknown; text?: unknown; parse_mode?: unknown };
  if (String(body.chat_id) !== chatId) return TELEGRAM.chatNotFound;
  if (typeof body.text !== 'string' || body.parse_mode !== 'HTML')
    return reply(400, { description: 'Bad Request: message text is empty' });
  const shown = shownText(body.text);
  if (shown === undefined) return reply(400, { description: "Bad Request: can't parse entities" });
  if (shown.length === 0 || shown.length > 4096)
    return reply(400, { description: 'Bad Request: message is too long' });
  return undefined;
}

/** The text as Telegram would show it, or undefined when its HTML parser would refuse it. */
export function shownText(html: string): string | undefined {
  const open: string[] = [];
  let out = '';
  const token = /<(\/?)([a-z-]+)(?:\s+href="[^"<>]*")?>|&(amp|lt|gt|quot);|([<>&])|([^<>&]+)/g;
  for (let m = token.exec(html); m; m = token.exec(html)) {
    if (m[5] !== undefined) out += m[5];
    else if (m[4] !== undefined)
      return undefined; // a raw <, > or & that is not an entity or a known tag
    else if (m[3] !== undefined) out += { amp: '&', lt: '<', gt: '>', quot: '"' }[m[3]];
    else if (!TAGS.has(m[2] ?? '')) return undefined;
    else if (m[1]) {
      if (open.pop() !== m[2]) return undefined;
    } else open.push(m[2] ?? '');
  }
  return open.length ? undefined : out;
}
