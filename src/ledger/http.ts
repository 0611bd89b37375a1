// One HTTP exchange on an undici Dispatcher: per-phase timeouts plus one total deadline, a response-size cap
// (also after decompression) and gzip/br/deflate bodies. No retries here (ledger-request.ts owns them).
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, inflateRaw } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { linkSignal } from './linked-signal.js';
import { MalformedResponseError, RequestDeadlineError, ResponseTooLargeError } from './errors.js';

/** A client's timeouts as configured (ledger.timeouts); each has a default where the client is made. */
export interface ClientTimeouts {
  readonly connectMs?: number;
  readonly headersMs?: number;
  readonly bodyMs?: number;
  readonly totalMs?: number;
}

export interface HttpSettings {
  readonly origin: string;
  readonly dispatcher: Dispatcher;
  readonly headersTimeoutMs: number;
  /** Longest pause between two body chunks (undici restarts it on every chunk). */
  readonly bodyTimeoutMs: number;
  /** The whole attempt: connect, headers and the last body byte, however slowly the body arrives. */
  readonly totalTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly userAgent: string;
}

export interface HttpRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

const DECODERS: Record<string, (buf: Buffer, opts: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  br: promisify(brotliDecompress),
  deflate: inflateEither,
};

async function inflateEither(buf: Buffer, opts: { maxOutputLength: number }): Promise<Buffer> {
  try {
    return await promisify(inflate)(buf, opts);
  } catch (err) {
    if (isTooLarge(err)) throw err;
    return promisify(inflateRaw)(buf, opts); // some servers send raw deflate without the zlib header
  }
}

function isTooLarge(err: unknown): boolean {
  return (err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}

/**
 * Rejects with RequestDeadlineError when the attempt outlives `totalTimeoutMs`, whatever phase it is in: the
 * per-phase timeouts cannot catch a server that sends one byte just before each would fire.
 */
export async function sendHttp(settings: HttpSettings, request: HttpRequest): Promise<HttpResponse> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new RequestDeadlineError(request.path, settings.totalTimeoutMs)),
    settings.totalTimeoutMs,
  );
  // The caller's signal may outlive many requests: linked, not AbortSignal.any (linked-signal.ts says why).
  const link = linkSignal([request.signal, deadline.signal]);
  try {
    return await exchange(settings, request, link.signal);
  } catch (err) {
    if (deadline.signal.aborted && !request.signal?.aborted) throw deadline.signal.reason as Error;
    throw err;
  } finally {
    clearTimeout(timer);
    link.dispose();
  }
}

async function exchange(
  settings: HttpSettings,
  request: HttpRequest,
  signal: AbortSignal,
): Promise<HttpResponse> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-encoding': 'gzip, br, deflate',
    'user-agent': settings.userAgent,
  };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await settings.dispatcher.request({
    origin: settings.origin,
    path: request.path,
    method: request.method,
    headers,
    body: request.body,
    signal,
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
  });
  const raw = await readLimited(response, settings.maxResponseBytes, request.path, signal);
  const text = (await decode(response.headers['content-encoding'], raw, settings, request.path)).toString(
    'utf8',
  );
  return { status: response.statusCode, headers: response.headers, text };
}

async function readLimited(
  response: Dispatcher.ResponseData,
  limit: number,
  path: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (declared > limit) {
    response.body.destroy();
    throw new ResponseTooLargeError(path, limit);
  }
  // Destroying the body ends the read below even when the server has gone quiet mid-body.
  const stop = () => response.body.destroy(signal.reason as Error);
  if (signal.aborted) stop();
  signal.addEventListener('abort', stop, { once: true });
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.body.destroy();
        throw new ResponseTooLargeError(path, limit);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks, size);
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

async function decode(
  encoding: string | string[] | undefined,
  raw: Buffer,
  settings: HttpSettings,
  path: string,
): Promise<Buffer> {
  const name = (Array.isArray(encoding) ? encoding.join(',') : (encoding ?? 'identity')).trim().toLowerCase();
  if (name === 'identity' || name === '') return raw;
  const decoder = Object.hasOwn(DECODERS, name) ? DECODERS[name] : undefined;
  if (decoder === undefined) throw new MalformedResponseError(path, `unsupported content-encoding "${name}"`);
  try {
    return await decoder(raw, { maxOutputLength: settings.maxResponseBytes });
  } catch (err) {
    if (isTooLarge(err) || err instanceof RangeError)
      throw new ResponseTooLargeError(path, settings.maxResponseBytes);
    throw new MalformedResponseError(path, `corrupt ${name} body`, { cause: err });
  }
}
