// The status page's two forms (docs/operations.md, "Silence and acknowledge from the page"): POST /actions/silence
// and POST /actions/ack, form-encoded, over the same stores and checks as POST /api/v1/silences and
// POST /api/v1/alerts/{id}/ack. Each needs the write token: the bearer header, or the login session cookie
// together with the session's CSRF token in the form and an Origin of this server (SameSite=Strict keeps the
// cookie off other sites' requests already; the CSRF token and the Origin check hold even without it).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerMatches, csrfToken, sameOrigin, sameSecret, sessionOf } from '../observability/http-auth.js';
import { ackAlert, AckBody } from './alerts-api.js';
import type { ApiDeps } from './api-router.js';
import { HttpError, readForm } from './http-io.js';
import { addSilence, SilenceBody } from './silences-api.js';

/** A silence from the page lasts 1 hour to 7 days. */
const MAX_HOURS = 168;

type Action = (form: URLSearchParams, deps: ApiDeps) => string;

const ACTIONS: ReadonlyMap<string, Action> = new Map([
  ['/actions/silence', silenceFromForm],
  ['/actions/ack', ackFromForm],
]);

/** Handles /actions/*; false for any other path. */
export function createPageActions(deps: ApiDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (!path.startsWith('/actions/')) return false;
    const action = ACTIONS.get(path);
    const fail = (status: number, message: string) => {
      deps.metrics.apiRequests.inc({ method: req.method ?? '', code: String(status) });
      res
        .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .end(`${message}\n`);
    };
    if (!action || req.method !== 'POST') {
      req.resume();
      fail(action ? 405 : 404, action ? 'POST only' : `not found: ${path}`);
      return true;
    }
    readForm(req)
      .then((form) => {
        authorize(req, form, deps);
        const done = action(form, deps);
        deps.metrics.apiRequests.inc({ method: 'POST', code: '303' });
        res.writeHead(303, { location: `/?done=${done}#alerts`, 'cache-control': 'no-store' }).end();
      })
      .catch((err: unknown) => {
        if (err instanceof HttpError) return fail(err.status, err.message);
        deps.log.error({ err, path }, 'page action failed');
        fail(500, 'internal error; see the daemon log');
      });
    return true;
  };
}

function authorize(req: IncomingMessage, form: URLSearchParams, deps: ApiDeps): void {
  const token = deps.http().api_token;
  if (token === undefined)
    throw new HttpError(403, 'silences and acks are disabled: set http.api_token_file in the config');
  if (bearerMatches(req, token)) return;
  const session = sessionOf(req, token, deps.clock());
  if (session === undefined)
    throw new HttpError(
      401,
      'not logged in (or the session expired): log in at /login and send the form again',
    );
  if (!sameOrigin(req) || !sameSecret(form.get('csrf') ?? '', csrfToken(token, session)))
    throw new HttpError(403, 'the form did not come from this page (CSRF check): reload the page and retry');
}

function silenceFromForm(form: URLSearchParams, deps: ApiDeps): string {
  const hours = Number(form.get('hours') ?? '');
  if (!Number.isInteger(hours) || hours < 1 || hours > MAX_HOURS)
    throw new HttpError(400, `hours: a whole number from 1 to ${MAX_HOURS}`);
  const now = deps.clock();
  const matchers = (form.get('matchers') ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const body = SilenceBody.safeParse({
    matchers,
    endsAt: new Date(now + hours * 3600_000).toISOString(),
    createdBy: form.get('by') ?? '',
    comment: form.get('comment') ?? '',
  });
  if (!body.success)
    throw new HttpError(400, `invalid silence: ${body.error.issues.map(issueText).join('; ')}`);
  const silence = addSilence(deps.silences, body.data, now, deps.knownLabels());
  deps.log.info(
    { silence: silence.id, createdBy: silence.createdBy },
    'silence created from the status page',
  );
  return 'silenced';
}

function ackFromForm(form: URLSearchParams, deps: ApiDeps): string {
  const body = AckBody.safeParse({ by: form.get('by') ?? '', comment: form.get('comment') ?? '' });
  if (!body.success) throw new HttpError(400, `invalid ack: ${body.error.issues.map(issueText).join('; ')}`);
  const id = form.get('id') ?? '';
  ackAlert(deps.alerts, deps.acks, id, body.data, deps.clock());
  deps.log.info({ alert: id, by: body.data.by }, 'alert acknowledged from the status page');
  return 'acked';
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  const field = issue.path.map(String).join('.') || '(form)';
  return `${field === 'createdBy' ? 'by' : field}: ${issue.message}`;
}
