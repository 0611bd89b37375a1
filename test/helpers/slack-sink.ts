// A local server that answers like Slack's incoming-webhook endpoint: `200 ok`, `429` with Retry-After,
// `400 invalid_payload`, `404 no_service`, `500`. It also checks the payload against Slack's limits, so a
// message Slack would reject is rejected here too.
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

export const SLACK = {
  ok: { status: 200, body: 'ok' },
  rateLimited: (retryAfterSeconds: number): SinkResponse => ({
    status: 429,
    headers: { 'retry-after': String(retryAfterSeconds) },
    body: 'rate_limited',
  }),
  invalidPayload: { status: 400, body: 'invalid_payload' },
  noService: { status: 404, body: 'no_service' },
  serverError: { status: 500, body: 'internal_error' },
} as const satisfies Record<string, SinkResponse | ((n: number) => SinkResponse)>;

export interface SlackSink extends HttpSink {
  /** The webhook URL; its last path segment is the secret token. */
  readonly webhookUrl: string;
  /** Parsed JSON bodies of the requests answered `200 ok` (a reset connection is not an answer). */
  accepted(): SlackMessage[];
}

export interface SlackMessage {
  readonly text?: string;
  readonly blocks?: { type: string; text?: { text: string }; fields?: { text: string }[] }[];
}

export async function startSlackSink(token = 'XXXXsecretTOKENxxxx'): Promise<SlackSink> {
  const sink = await startHttpSink(validate);
  const accepted = () =>
    sink.requests
      .filter((r) => r.answer.status === 200 && !r.answer.reset)
      .map((r) => JSON.parse(r.body) as SlackMessage);
  return { ...sink, webhookUrl: `${sink.origin}/services/T0001/B0001/${token}`, accepted };
}

function validate(request: RecordedRequest): SinkResponse {
  if (request.method !== 'POST' || !request.path.startsWith('/services/')) return SLACK.noService;
  let message: SlackMessage;
  try {
    message = JSON.parse(request.body) as SlackMessage;
  } catch {
    return SLACK.invalidPayload;
  }
  const blocks = message.blocks ?? [];
  if (!message.text && blocks.length === 0) return { status: 400, body: 'no_text' };
  if (blocks.length > 50) return { status: 400, body: 'invalid_blocks' };
  const tooLong = blocks.some((b) => (b.text?.text.length ?? 0) > (b.type === 'header' ? 150 : 3000));
  return tooLong ? { status: 400, body: 'invalid_blocks' } : SLACK.ok;
}
