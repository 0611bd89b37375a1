// Request and response plumbing of the API (api-router.ts): bounded body reading, JSON answers, the bearer check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { HttpConfig } from '../config/sections/http.js';
import type { HttpAuth } from '../observability/http-auth.js';

/** Request bodies larger than this are refused (413) before they are read. */
export const MAX_BODY_BYTES = 64 * 1024;
/** A client that sends its body slower than this is cut off (408). */
const BODY_DEADLINE_MS = 10_000;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(`${JSON.stringify(body)}\n`);
}

/** Reads and validates a JSON body: 413 when too large, 400 (with every problem, by field) when invalid. */
export async function readJson<T extends z.ZodType>(req: IncomingMessage, schema: T): Promise<z.output<T>> {
  const text = await readBody(req);
  let value: unknown;
  try {
    value = text === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new HttpError(400, `the request body is not JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
  throw new HttpError(400, `invalid request body: ${problems.join('; ')}`);
}

function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new HttpError(408, 'the request body did not arrive in time'));
    }, BODY_DEADLINE_MS);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        clearTimeout(timer);
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (clearTimeout(timer), resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', (err) => (clearTimeout(timer), reject(err)));
  });
}

function tooLarge(): HttpError {
  return new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
}

/** Reads an `application/x-www-form-urlencoded` body (the page's forms), bounded like a JSON body. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('application/x-www-form-urlencoded')) {
    req.resume();
    throw new HttpError(415, 'send the form as application/x-www-form-urlencoded');
  }
  return new URLSearchParams(await readBody(req));
}

/** The HTTP server's view of the `http:` section (observability/http-auth.ts). */
export function httpAuth(http: HttpConfig): HttpAuth {
  return {
    ...(http.api_token !== undefined ? { token: http.api_token } : {}),
    readAuth: http.api_read_auth,
    secureCookie: http.cookie_secure,
  };
}

// The bearer check lives with the rest of the HTTP auth (observability/http-auth.ts).
export { bearerMatches } from '../observability/http-auth.js';
