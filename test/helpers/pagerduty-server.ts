// A PagerDuty Events API v2 on 127.0.0.1 that behaves as PagerDuty documents it: `POST /v2/enqueue`, 202
// `{"status":"success","message":"Event processed","dedup_key":…}` for an accepted event; 400 with
// `{"status":…,"message":…,"errors":[…]}` for JSON it cannot parse, an unknown routing key or an invalid event
// (missing payload fields, a severity outside critical/error/warning/info, a dedup_key over 255 or a summary over
// 1024 characters); 429 past `rateLimit` events per routing key (PagerDuty: about 120 a minute). And the alert
// lifecycle by dedup_key: a trigger opens an alert, or adds a log entry to the open one; a resolve closes the open
// alert, or is dropped when none is open; a trigger after the resolve opens a new alert.
import { startHttpSink, type HttpSink, type RecordedRequest, type SinkResponse } from './http-sink.js';

export interface PdEvent {
  readonly routing_key: string;
  readonly event_action: string;
  readonly dedup_key?: string;
  readonly payload?: {
    summary?: string;
    source?: string;
    severity?: string;
    custom_details?: Record<string, unknown>;
  };
  readonly links?: { href: string; text?: string }[];
  readonly client?: string;
  readonly client_url?: string;
}

/** One PagerDuty alert: opened by a trigger, closed by a resolve with its dedup_key. */
export interface PdAlert {
  readonly dedupKey: string;
  status: 'triggered' | 'resolved';
  /** Trigger events applied to it (the first opened it; others are log entries). */
  triggers: number;
  readonly summary: string;
  readonly severity: string;
}

export interface PagerdutyServer {
  /** The enqueue URL, for the notifier's `url`. */
  readonly url: string;
  readonly sink: HttpSink;
  /** Every alert ever opened, in order (a dedup_key resolved and triggered again has two). */
  readonly alerts: PdAlert[];
  /** The events answered 202, in order. */
  accepted(): PdEvent[];
  /** Resolves once `check` holds, re-checked on every request. */
  until(check: () => boolean): Promise<void>;
  script(...responses: SinkResponse[]): void;
  close(): Promise<void>;
}

export interface PagerdutyServerOptions {
  /** The integration keys it knows; others get PagerDuty's 400. */
  readonly routingKeys: readonly string[];
  /** Events per routing key before 429 (default: unlimited). */
  readonly rateLimit?: number;
}

const SEVERITIES = new Set(['critical', 'error', 'warning', 'info']);

export async function startPagerdutyServer(options: PagerdutyServerOptions): Promise<PagerdutyServer> {
  const alerts: PdAlert[] = [];
  const accepted: PdEvent[] = [];
  const counts = new Map<string, number>();
  const answer = (request: RecordedRequest): SinkResponse => {
    if (request.method !== 'POST' || request.path !== '/v2/enqueue')
      return { status: 404, body: 'Not Found' };
    let event: PdEvent;
    try {
      event = JSON.parse(request.body) as PdEvent;
    } catch {
      return invalid(['JSON parse error'], 'Unrecognized object', 'Event object format is unrecognized');
    }
    const errors = problems(event, options.routingKeys);
    if (errors.length > 0) return invalid(errors);
    const count = (counts.get(event.routing_key) ?? 0) + 1;
    counts.set(event.routing_key, count);
    if (options.rateLimit !== undefined && count > options.rateLimit)
      return json(429, {
        status: 'throttle event',
        message: 'Requests for this service are arriving too quickly. Please retry later.',
      });
    accepted.push(event);
    apply(event, alerts);
    return json(202, { status: 'success', message: 'Event processed', dedup_key: event.dedup_key });
  };
  const sink = await startHttpSink(answer);
  return {
    url: `${sink.origin}/v2/enqueue`,
    sink,
    alerts,
    accepted: () => accepted,
    async until(check) {
      while (!check()) await sink.waitForRequests(sink.requests.length + 1);
    },
    script: (...responses) => sink.script(...responses),
    close: () => sink.close(),
  };
}

function problems(event: PdEvent, keys: readonly string[]): string[] {
  const errors: string[] = [];
  if (!event || typeof event !== 'object') return ['Event object is not an object'];
  if (!keys.includes(event.routing_key)) errors.push('Invalid routing key');
  if (!['trigger', 'acknowledge', 'resolve'].includes(event.event_action))
    errors.push("'event_action' is invalid (must be one of: trigger, acknowledge, resolve)");
  if (event.dedup_key !== undefined && (typeof event.dedup_key !== 'string' || event.dedup_key.length > 255))
    errors.push("'dedup_key' is invalid (must be a string of at most 255 characters)");
  if (event.event_action !== 'trigger' && !event.dedup_key) errors.push("'dedup_key' is missing");
  if (event.event_action === 'trigger') {
    const p = event.payload;
    if (!p?.summary) errors.push("'payload.summary' is missing or blank");
    else if (p.summary.length > 1024) errors.push("'payload.summary' is longer than 1024 characters");
    if (!p?.source) errors.push("'payload.source' is missing or blank");
    if (!p?.severity || !SEVERITIES.has(p.severity)) errors.push("'payload.severity' is invalid");
  }
  return errors;
}

function apply(event: PdEvent, alerts: PdAlert[]): void {
  const open = alerts.find((a) => a.dedupKey === event.dedup_key && a.status === 'triggered');
  if (event.event_action === 'trigger') {
    if (open) open.triggers++;
    else
      alerts.push({
        dedupKey: event.dedup_key ?? `generated-${alerts.length}`,
        status: 'triggered',
        triggers: 1,
        summary: event.payload?.summary ?? '',
        severity: event.payload?.severity ?? '',
      });
  } else if (event.event_action === 'resolve' && open) open.status = 'resolved';
}

function invalid(
  errors: string[],
  status = 'invalid event',
  message = 'Event object is invalid',
): SinkResponse {
  return json(400, { status, message, errors });
}

function json(status: number, body: unknown): SinkResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
