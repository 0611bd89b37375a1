// A local server that answers like a Teams Workflows webhook trigger ("When a Teams webhook request is
// received"): `202 Accepted` for a message with an Adaptive Card attachment; a body that is not one `400` with
// `{"error":{"code":"TriggerInputSchemaMismatch"}}`; a wrong `sig` `401 DirectApiAuthorizationRequired`; a
// deleted or disabled flow `404 WorkflowTriggerNotFound`; throttling `429` with Retry-After.
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

const error = (status: number, code: string, headers: Record<string, string> = {}): SinkResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ error: { code, message: `The request failed: ${code}.` } }),
});

export const TEAMS = {
  accepted: { status: 202 },
  schemaMismatch: error(400, 'TriggerInputSchemaMismatch'),
  unauthorized: error(401, 'DirectApiAuthorizationRequired'),
  notFound: error(404, 'WorkflowTriggerNotFound'),
  throttled: (seconds: number) => error(429, 'WorkflowRequestsThrottled', { 'retry-after': String(seconds) }),
} as const;

export interface TeamsCard {
  type: string;
  version: string;
  body: {
    type: string;
    text?: string;
    style?: string;
    items?: { text?: string }[];
    facts?: { title: string; value: string }[];
  }[];
  actions?: { type: string; url: string }[];
}

export interface TeamsSink extends HttpSink {
  readonly webhookUrl: string;
  /** The Adaptive Cards of the accepted messages. */
  cards(): TeamsCard[];
}

export async function startTeamsSink(sig = 'teamsSIGsecretXXXXXXXX'): Promise<TeamsSink> {
  const path = `/workflows/0a1b2c/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${sig}`;
  const sink = await startHttpSink((request) => validate(request, path));
  return {
    ...sink,
    webhookUrl: `${sink.origin}${path}`,
    cards: () =>
      sink.requests
        .filter((r) => r.answer.status === 202)
        .map(
          (r) => (JSON.parse(r.body) as { attachments: { content: TeamsCard }[] }).attachments[0]!.content,
        ),
  };
}

function validate(request: RecordedRequest, path: string): SinkResponse {
  if (!request.path.startsWith(path.split('?')[0]!)) return TEAMS.notFound;
  if (request.path !== path) return TEAMS.unauthorized;
  try {
    const message = JSON.parse(request.body) as {
      type?: string;
      attachments?: { contentType?: string; content?: TeamsCard }[];
    };
    const card = message.attachments?.[0];
    if (message.type !== 'message' || card?.contentType !== 'application/vnd.microsoft.card.adaptive')
      return TEAMS.schemaMismatch;
    if (card.content?.type !== 'AdaptiveCard' || !Array.isArray(card.content.body))
      return TEAMS.schemaMismatch;
    return Buffer.byteLength(request.body) > 28 * 1024 ? error(413, 'MessageTooLarge') : TEAMS.accepted;
  } catch {
    return TEAMS.schemaMismatch;
  }
}
