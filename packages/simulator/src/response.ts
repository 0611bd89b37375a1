// Route results and the service's error body (docs/ledger-api.md §1.1).
import { serializeJson } from './json.js';

export interface RouteResponse {
  readonly status: number;
  /** The JSON to send: text, or UTF-8 bytes (list pages are concatenated from pre-serialized records). */
  readonly body: string | Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `{"_status":{"messages":[{"message":…}]}}`, messages in order. */
export function errorResponse(status: number, messages: readonly string[]): RouteResponse {
  return { status, body: serializeJson({ _status: { messages: messages.map((message) => ({ message })) } }) };
}

/** A 200 list page: `{"<name>":[…items…],"links":{"next":…}}` from pre-serialized items; adds the Link header. */
export function pageResponse(name: string, items: readonly string[], next: string | null): RouteResponse {
  const body = `{"${name}":[${items.join(',')}],"links":{"next":${next === null ? 'null' : JSON.stringify(next)}}}`;
  return { status: 200, body, ...(next === null ? {} : { headers: { link: `<${next}>; rel="next"` } }) };
}

const COMMA = Buffer.from(',');

/** pageResponse from pre-encoded UTF-8 items: one Buffer.concat, no re-encoding on send. */
export function bufferPageResponse(
  name: string,
  items: readonly Buffer[],
  next: string | null,
): RouteResponse {
  const parts: Buffer[] = [Buffer.from(`{"${name}":[`)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(`],"links":{"next":${next === null ? 'null' : JSON.stringify(next)}}}`));
  const body = Buffer.concat(parts);
  return { status: 200, body, ...(next === null ? {} : { headers: { link: `<${next}>; rel="next"` } }) };
}
