// A Slack-like incoming webhook that plays a fault plan until heal(): slow answers, 429/5xx with any Retry-After,
// and connections reset without an answer; heal() takes effect once the plan has played through. A message
// counts as delivered only when it was answered 200.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { retryAfterHeader, type SlackFault } from './fault-plan.js';

/** Bodies above this are refused 413 (Slack's own limits are far smaller). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HostileSlackEntry {
  readonly at: number;
  readonly status: number | 'reset';
  readonly body: string;
}

export interface HostileSlack {
  readonly webhookUrl: string;
  readonly log: readonly HostileSlackEntry[];
  /** Bodies answered 200. */
  accepted(): string[];
  heal(): void;
  close(): Promise<void>;
}

export async function startHostileSlack(
  plan: readonly SlackFault[],
  clock = Date.now,
): Promise<HostileSlack> {
  const log: HostileSlackEntry[] = [];
  const state = { healed: false, requests: 0 };
  /** Healed once asked to and once every fault of the plan has been played (so each drawn fault is felt). */
  const healed = () => state.healed && state.requests >= plan.length;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const fault = healed()
        ? { kind: 'none' as const }
        : (plan[state.requests++ % plan.length] ?? { kind: 'none' as const });
      const answer = (status: number, headers: Record<string, string>, text: string) => {
        log.push({ at: clock(), status, body });
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text);
      };
      if (size > MAX_BODY_BYTES) return answer(413, {}, 'too_large');
      if (!req.url?.startsWith('/services/')) return answer(404, {}, 'no_service');
      switch (fault.kind) {
        case 'reset':
          log.push({ at: clock(), status: 'reset', body });
          return void res.socket?.resetAndDestroy();
        case 'status': {
          const header = retryAfterHeader(fault.retryAfter, clock());
          return answer(fault.status, header === undefined ? {} : { 'retry-after': header }, 'rate_limited');
        }
        case 'delay':
          return void setTimeout(() => answer(200, {}, 'ok'), fault.ms);
        default:
          return answer(200, {}, 'ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    webhookUrl: `http://127.0.0.1:${port}/services/T0001/B0001/faultSLACKtoken`,
    log,
    accepted: () => log.filter((e) => e.status === 200).map((e) => e.body),
    heal: () => void (state.healed = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
