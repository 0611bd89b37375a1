// The Slack-like receiving end of the chaos runs: the shared HTTP sink (test/helpers) with a switch that takes it
// down and back up, and a record of when every request arrived, so "Retry-After honoured" can be checked. Down
// means, by mode: 'throttled' (503s and 429s with Retry-After, alternating) or 'refusing' (503s and reset
// connections, alternating: a receiver that is gone, with no Retry-After to pause on).
import { startHttpSink, type HttpSink, type SinkResponse } from '../../test/helpers/http-sink.js';

export interface ChaosSlack {
  readonly sink: HttpSink;
  /** The webhook URL; its last segment is the secret token. */
  readonly webhookUrl: string;
  readonly token: string;
  /** Arrival time (ms) and answer of each request, in order (status 0: the connection was reset). */
  readonly log: { at: number; status: number; retryAfterS?: number }[];
  setDown(down: boolean): void;
  /** Bodies answered 200. */
  accepted(): string[];
  close(): Promise<void>;
}

export type SlackDownMode = 'throttled' | 'refusing';

export async function startChaosSlack(
  options: { retryAfterS?: number; down?: SlackDownMode } = {},
): Promise<ChaosSlack> {
  const token = `chaosSLACKtoken${Math.random().toString(36).slice(2, 12)}`;
  const retryAfterS = options.retryAfterS ?? 5;
  const state = { down: false, answered: 0 };
  const log: ChaosSlack['log'] = [];
  const sink = await startHttpSink((request): SinkResponse => {
    const at = Date.now();
    if (state.down && options.down === 'refusing') {
      state.answered += 1;
      const reset = state.answered % 2 === 0;
      log.push({ at, status: reset ? 0 : 503 });
      return reset ? { status: 0, reset: true } : { status: 503, body: 'service_unavailable' };
    }
    if (state.down) {
      state.answered += 1;
      const rateLimited = state.answered % 2 === 0;
      log.push({ at, status: rateLimited ? 429 : 503, ...(rateLimited ? { retryAfterS } : {}) });
      return rateLimited
        ? { status: 429, headers: { 'retry-after': String(retryAfterS) }, body: 'rate_limited' }
        : { status: 503, body: 'service_unavailable' };
    }
    if (!request.path.startsWith('/services/')) {
      log.push({ at, status: 404 });
      return { status: 404, body: 'no_service' };
    }
    log.push({ at, status: 200 });
    return { status: 200, body: 'ok' };
  });
  return {
    sink,
    webhookUrl: `${sink.origin}/services/T0001/B0001/${token}`,
    token,
    log,
    setDown: (down) => void (state.down = down),
    accepted: () =>
      sink.requests.filter((r) => r.answer.status === 200 && !r.answer.reset).map((r) => r.body),
    close: () => sink.close(),
  };
}
