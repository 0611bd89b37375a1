// Wraps any request handler with a fault profile. Status faults (429/500/503) answer without calling the inner
// handler; body faults (reset, malformed, truncated) let it answer, capture the bytes and damage them on the way out.
// The ground-truth routes (/_sim/...) are never faulted: tests need a reliable view of what happened.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { createFaultDecider, type FaultDecision, type FaultProfile, type FaultRoute } from './faults.js';

export type SimHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface FaultStats {
  readonly requests: number;
  readonly byKind: Readonly<Record<string, number>>;
}

export interface FaultyHandler {
  readonly handler: SimHandler;
  stats(): FaultStats;
}

export interface FaultOptions {
  readonly profile: FaultProfile;
  readonly seed: number | string;
  /** Real-time delay for slow answers; inject one that resolves at once (or records the ms) in tests. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Which fault route a request path belongs to; null for paths that are never faulted. */
export function faultRouteOf(path: string): FaultRoute | null {
  if (path.startsWith('/_sim/')) return null;
  if (/^\/api\/v1\/transactions\/?$/.test(path)) return 'transactions';
  if (/^\/api\/v1\/accounts\/[^/]+\/rewards\/?$/.test(path)) return 'rewards';
  if (/^\/api\/v1\/contracts\/results\/[^/]+\/actions\/?$/.test(path)) return 'actions';
  if (path.endsWith('/session/verify/etherscan')) return 'verify';
  return 'other';
}

function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export function withFaults(inner: SimHandler, options: FaultOptions): FaultyHandler {
  const decide = createFaultDecider(options.profile, options.seed);
  const sleep = options.sleep ?? realSleep;
  const byKind: Record<string, number> = {};
  let requests = 0;
  const handler: SimHandler = async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const route = faultRouteOf(path);
    if (route === null) return inner(req, res);
    requests++;
    const decision = decide(route);
    if (decision.delayMs > 0) {
      byKind.slow = (byKind.slow ?? 0) + 1;
      await sleep(decision.delayMs);
    }
    if (decision.kind !== null) byKind[decision.kind] = (byKind[decision.kind] ?? 0) + 1;
    return applyFault(inner, req, res, decision);
  };
  return { handler, stats: () => ({ requests, byKind: { ...byKind } }) };
}

async function applyFault(
  inner: SimHandler,
  req: IncomingMessage,
  res: ServerResponse,
  decision: FaultDecision,
): Promise<void> {
  switch (decision.kind) {
    case null:
      return inner(req, res);
    case 'rate_limit':
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': String(decision.retryAfterSeconds) });
      res.end('<html><body><h1>429 Too Many Requests</h1>You have sent too many requests.</body></html>');
      return;
    case 'server_error':
      return sendError(res, 500, 'Internal error');
    case 'unavailable':
      return sendError(res, 503, 'Service unavailable');
    default: {
      const captured = await capture(inner, req, res);
      emitDamaged(res, captured, decision);
    }
  }
}

function sendError(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify({ _status: { messages: [{ message }] } }));
}

interface Captured {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** Runs the inner handler against `res` with writeHead/write/end diverted into a buffer. */
function capture(inner: SimHandler, req: IncomingMessage, res: ServerResponse): Promise<Captured> {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end };
  const chunks: Buffer[] = [];
  const captured: Captured = { status: 200, headers: {}, body: Buffer.alloc(0) };
  const toBuffer = (chunk: unknown) =>
    typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
  return new Promise<Captured>((resolve, reject) => {
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      captured.status = status;
      const headers = rest.find((r) => typeof r === 'object' && r !== null && !Array.isArray(r));
      if (headers) Object.assign(captured.headers, headers);
      return res;
    }) as typeof res.writeHead;
    res.write = ((chunk: unknown) => {
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      if (chunk !== undefined && typeof chunk !== 'function') chunks.push(toBuffer(chunk));
      Object.assign(res, original);
      if (res.statusCode !== 200 && captured.status === 200) captured.status = res.statusCode;
      captured.body = Buffer.concat(chunks);
      resolve(captured);
      return res;
    }) as typeof res.end;
    Promise.resolve(inner(req, res)).catch(reject);
  });
}

function emitDamaged(res: ServerResponse, captured: Captured, decision: FaultDecision): void {
  const { body } = captured;
  const headers = { ...captured.headers };
  delete headers['content-length'];
  res.removeHeader('content-length');
  if (decision.kind === 'reset') {
    res.writeHead(captured.status, { ...headers, 'content-length': String(body.length) });
    const cut = Math.max(1, Math.floor(body.length * (0.2 + 0.6 * decision.shape)));
    res.write(body.subarray(0, Math.min(cut, body.length - 1)), () => {
      const socket = res.socket as (typeof res.socket & { resetAndDestroy?: () => void }) | null;
      if (socket?.resetAndDestroy) socket.resetAndDestroy();
      else socket?.destroy();
    });
    return;
  }
  const damaged =
    decision.kind === 'truncated' ? truncate(body, decision.shape) : corrupt(body, decision.shape);
  res.writeHead(captured.status, { ...headers, 'content-length': String(damaged.length) });
  res.end(damaged);
}

/** A clean, complete HTTP answer whose JSON stops early. */
export function truncate(body: Buffer, shape: number): Buffer {
  if (body.length <= 1) return Buffer.alloc(0);
  return body.subarray(0, 1 + Math.floor(shape * (body.length - 1)));
}

/** Complete but syntactically broken JSON: a trailing comma, a single-quoted key, or an HTML error page. */
export function corrupt(body: Buffer, shape: number): Buffer {
  const text = body.toString('utf8');
  const pattern = Math.floor(shape * 3);
  if (pattern === 0) {
    const last = text.lastIndexOf('}');
    if (last > 0) return Buffer.from(`${text.slice(0, last)},}${text.slice(last + 1)}`);
  }
  if (pattern === 1) {
    const quote = text.indexOf('"');
    if (quote >= 0) return Buffer.from(`${text.slice(0, quote)}'${text.slice(quote + 1)}`);
  }
  return Buffer.from('<html><head><title>502 Bad Gateway</title></head><body>upstream error</body></html>');
}
