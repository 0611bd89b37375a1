// The daemon's one HTML page (`/`, the status page) with headers that hold even if an escaping bug let markup
// through: no script, no external resource, no framing, not sniffed as anything else, not cached.
import type { ServerResponse } from 'node:http';

export const STATUS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Renders the page for the request's query string; a throw answers 500 without detail (the page logs it). */
export type HtmlPage = (query: URLSearchParams) => string;

/** Serves `/` from `page`, and `/favicon.ico` as an empty 204 so a browser's automatic request does not 404. */
export function serveHtml(res: ServerResponse, path: string, rawUrl: string, page: HtmlPage): void {
  if (path === '/favicon.ico') {
    res.writeHead(204, { 'cache-control': 'max-age=86400' }).end();
    return;
  }
  // The query string is bounded: the page reads one small number from it.
  const at = rawUrl.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : rawUrl.slice(at + 1, at + 1025));
  let body: string;
  try {
    body = page(query);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('the status page could not be rendered\n');
    return;
  }
  res
    .writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': STATUS_PAGE_CSP,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .end(body);
}
