// The login form of the HTML pages (docs/api.md, "The status page's login"): GET /login shows it, POST /login
// takes the API token from it and answers with the session cookie (observability/http-auth.ts) and a redirect to
// `/`; POST /logout ends the session. The token is compared in constant time and never logged or echoed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpConfig } from '../config/sections/http.js';
import type { Logger } from '../observability/logger.js';
import { newSession, sameOrigin, sameSecret, sessionCookie } from '../observability/http-auth.js';
import { loginPage } from '../observability/html-route.js';
import { HttpError, readForm } from './http-io.js';

export interface LoginDeps {
  readonly http: () => HttpConfig;
  readonly clock: () => number;
  readonly log: Logger;
}

/** Handles /login and /logout; false for any other path. */
export function createLoginRoute(deps: LoginDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const refused = refusalLog(deps);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/login' && path !== '/logout') return false;
    const token = deps.http().api_token;
    if (req.method === 'GET' || req.method === 'HEAD') {
      const reason = deps.http().api_read_auth ? 'needed' : 'write';
      loginPage(res, token === undefined ? 403 : 200, token === undefined ? 'disabled' : reason);
      return true;
    }
    if (req.method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'GET, POST' }).end();
      return true;
    }
    if (!sameOrigin(req)) {
      req.resume();
      loginPage(res, 403, 'origin');
      return true;
    }
    const secure = deps.http().cookie_secure;
    if (path === '/logout') {
      req.resume();
      res.writeHead(303, { location: '/login', 'set-cookie': sessionCookie(undefined, secure) }).end();
      return true;
    }
    readForm(req).then(
      (form) => {
        if (token === undefined) return loginPage(res, 403, 'disabled');
        if (!sameSecret(form.get('token') ?? '', token)) {
          refused.note(req.socket.remoteAddress);
          return loginPage(res, 401, 'wrong');
        }
        deps.log.info({ remote: req.socket.remoteAddress }, 'login: session started');
        res
          .writeHead(303, {
            location: '/',
            'set-cookie': sessionCookie(newSession(token, deps.clock()), secure),
          })
          .end();
      },
      (err: unknown) => {
        const close = err instanceof HttpError && (err.status === 413 || err.status === 408);
        res.setHeader('connection', close ? 'close' : 'keep-alive');
        loginPage(res, err instanceof HttpError ? err.status : 400, 'form');
      },
    );
    return true;
  };
}

/** Wrong tokens are logged at most once a minute, with how many came since: someone guessing cannot flood the log. */
function refusalLog(deps: LoginDeps): { note(remote: string | undefined): void } {
  let lastAt = -Infinity;
  let since = 0;
  return {
    note(remote) {
      since++;
      const now = deps.clock();
      if (now - lastAt < 60_000) return;
      deps.log.warn(
        { remote, refused: since },
        'login refused: wrong token (counted since the last such line)',
      );
      lastAt = now;
      since = 0;
    },
  };
}
