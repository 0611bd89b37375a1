// An Opsgenie Alert API on 127.0.0.1 that behaves as Opsgenie documents it: `Authorization: GenieKey <key>`
// (401 `{"message": …}` without a known key); `POST /v2/alerts` creates an alert (422 with field errors for a
// missing or over-long message, a bad priority or an alias over 512 characters; 400 for JSON it cannot parse);
// `POST /v2/alerts/{alias}/close?identifierType=alias` closes the open alert of that alias. Both answer 202
// `{"result": "Request will be processed", "took": …, "requestId": …}` and are processed after the answer, as
// Opsgenie does: a create with the alias of an open alert only counts a repeat on it; a close with no open
// alert fails in the request log (`failedRequests`), not in the HTTP answer. 429 past `rateLimit` requests.
import { randomUUID } from 'node:crypto';
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

export interface OgAlert {
  readonly alias: string;
  readonly message: string;
  readonly priority: string;
  readonly body: Record<string, unknown>;
  status: 'open' | 'closed';
  /** Creates folded into it (1 = created once). */
  count: number;
  closeNote?: string;
}

export interface OpsgenieServer {
  readonly url: string;
  readonly sink: HttpSink;
  readonly alerts: OgAlert[];
  /** Requests answered 202 whose processing failed (`Alert does not exist`). */
  readonly failedRequests: { path: string; reason: string }[];
  until(check: () => boolean): Promise<void>;
  script(...responses: SinkResponse[]): void;
  close(): Promise<void>;
}

export interface OpsgenieServerOptions {
  readonly apiKeys: readonly string[];
  readonly rateLimit?: number;
}

const PRIORITIES = new Set(['P1', 'P2', 'P3', 'P4', 'P5']);

export async function startOpsgenieServer(options: OpsgenieServerOptions): Promise<OpsgenieServer> {
  const alerts: OgAlert[] = [];
  const failedRequests: { path: string; reason: string }[] = [];
  let served = 0;
  const answer = (request: RecordedRequest): SinkResponse => {
    const key = /^GenieKey (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!key || !options.apiKeys.includes(key)) return json(401, { message: 'Could not authenticate' });
    if (options.rateLimit !== undefined && ++served > options.rateLimit)
      return json(429, {
        message: 'You are making too many requests! To avoid errors, we recommend you limit requests.',
      });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(request.body) as Record<string, unknown>;
    } catch {
      return json(400, { message: 'Could not parse the request body' });
    }
    const close = /^\/v2\/alerts\/([^/?]+)\/close\?identifierType=alias$/.exec(request.path);
    if (request.method === 'POST' && request.path === '/v2/alerts') return create(body, alerts);
    if (request.method === 'POST' && close) {
      const alias = decodeURIComponent(close[1] ?? '');
      const open = alerts.find((a) => a.alias === alias && a.status === 'open');
      if (open) Object.assign(open, { status: 'closed', closeNote: String(body.note ?? '') });
      else failedRequests.push({ path: request.path, reason: 'Alert does not exist' });
      return accepted();
    }
    return json(404, { message: 'Could not find the resource' });
  };
  const sink = await startHttpSink(answer);
  return {
    url: sink.origin,
    sink,
    alerts,
    failedRequests,
    async until(check) {
      while (!check()) await sink.waitForRequests(sink.requests.length + 1);
    },
    script: (...responses) => sink.script(...responses),
    close: () => sink.close(),
  };
}

function create(body: Record<string, unknown>, alerts: OgAlert[]): SinkResponse {
  const errors: Record<string, string> = {};
  const message = body.message;
  if (typeof message !== 'string' || message.trim() === '') errors.message = 'Message can not be empty.';
  else if (message.length > 130) errors.message = 'Message can not be longer than 130 characters.';
  if (body.alias !== undefined && (typeof body.alias !== 'string' || body.alias.length > 512))
    errors.alias = 'Alias can not be longer than 512 characters.';
  if (body.priority !== undefined && !PRIORITIES.has(String(body.priority)))
    errors.priority = 'Priority should be one of [P1, P2, P3, P4, P5]';
  if (Object.keys(errors).length > 0)
    return json(422, { message: 'Request body is not processable. Please check the errors.', errors });
  const alias = typeof body.alias === 'string' ? body.alias : String(message);
  const open = alerts.find((a) => a.alias === alias && a.status === 'open');
  if (open) open.count++;
  else
    alerts.push({
      alias,
      message: String(message),
      priority: String(body.priority ?? 'P3'),
      body,
      status: 'open',
      count: 1,
    });
  return accepted();
}

function accepted(): SinkResponse {
  return json(202, { result: 'Request will be processed', took: 0.01, requestId: randomUUID() });
}

function json(status: number, body: Record<string, unknown>): SinkResponse {
  return {
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ took: 0.001, requestId: randomUUID(), ...body }),
  };
}
