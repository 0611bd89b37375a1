// The daemon's HTML pages (`/`, the status page, and the login form) with headers that hold even if an escaping
// bug let markup through: no script, no external resource, no framing, forms only to this server, not sniffed as
// anything else, not cached.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { csrfToken, sessionOf, type HttpAuth } from './http-auth.js';

export const STATUS_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Who looks at the page: what its forms may offer. */
export interface Viewer {
  /** A token is configured: silences and acks can be made (after logging in). */
  readonly writable: boolean;
  /** The viewer's session's CSRF token: logged in, the forms are shown with it. */
  readonly csrf?: string;
}

/** Renders the page for the request's query string; a throw answers 500 without detail (the page logs it). */
export type HtmlPage = (query: URLSearchParams, viewer?: Viewer) => string;

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': STATUS_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

/** The viewer of a request: whether a token exists and, with a valid session, its CSRF token. */
export function viewerOf(req: IncomingMessage, auth: HttpAuth, now: number): Viewer {
  const session = sessionOf(req, auth.token, now);
  return {
    writable: auth.token !== undefined,
    ...(session !== undefined && auth.token !== undefined ? { csrf: csrfToken(auth.token, session) } : {}),
  };
}

/** Serves `/` from `page`, and `/favicon.ico` as an empty 204 so a browser's automatic request does not 404. */
export function serveHtml(
  res: ServerResponse,
  path: string,
  rawUrl: string,
  page: HtmlPage,
  viewer?: Viewer,
): void {
  if (path === '/favicon.ico') {
    res.writeHead(204, { 'cache-control': 'max-age=86400' }).end();
    return;
  }
  // The query string is bounded: the page reads a few small values from it.
  const at = rawUrl.indexOf('?');
  const query = new URLSearchParams(at < 0 ? '' : rawUrl.slice(at + 1, at + 1025));
  let body: string;
  try {
    body = page(query, viewer);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain' }).end('the status page could not be rendered\n');
    return;
  }
  res.writeHead(200, HEADERS).end(body);
}

/** The login form: a fixed page (nothing from the request is printed in it). */
export function loginPage(res: ServerResponse, status: number, message: LoginMessage): void {
  res.writeHead(status, HEADERS).end(LOGIN_HTML.replace('{{message}}', LOGIN_MESSAGES[message]));
}

export type LoginMessage = 'needed' | 'write' | 'wrong' | 'disabled' | 'origin' | 'form';

const LOGIN_MESSAGES: Readonly<Record<LoginMessage, string>> = {
  needed: 'This daemon requires the API token to show its data (http.api_read_auth).',
  write: 'Log in with the API token to silence and acknowledge alerts from the status page.',
  wrong: 'That is not the API token. Try again: it is the content of http.api_token_file.',
  disabled: 'No API token is configured (http.api_token_file), so there is nothing to log in with.',
  origin: 'The form was not sent from this page (Origin check). Open this page and send it again.',
  form: 'The form could not be read. Send it again from this page.',
};

const LOGIN_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ledger-sentinel · log in</title>
<style>
:root { color-scheme: light dark; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; display: grid; place-items: center; min-height: 100vh; }
form { border: 1px solid #8886; border-radius: 10px; padding: 20px 24px; width: min(360px, 90vw); }
h1 { font-size: 18px; margin: 0 0 8px; } p { margin: 0 0 12px; color: #6e7781; }
input { font: inherit; width: 100%; box-sizing: border-box; padding: 6px 8px; margin: 4px 0 12px; }
button { font: inherit; padding: 6px 16px; }
</style></head>
<body><form method="post" action="/login" id="login">
<h1>ledger-sentinel</h1><p id="login-message">{{message}}</p>
<label for="token">API token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Log in</button>
</form></body></html>
`;
