// A real HTTP proxy on 127.0.0.1:0 in front of the simulator that holds chosen answers until the test lets them
// through: a service slow to answer some requests (the global sweep's, say), at the pace the test sets.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long `waiting()` waits for an answer to be held before it resolves false (a bound, not a figure). */
const WAIT_BOUND_MS = 5_000;

export interface HoldProxy {
  readonly url: string;
  /** Requests (path and query) in arrival order. */
  readonly requests: string[];
  /** Which answers wait until release(): by default the sweep's (`timestamp=lte:`); none when false. */
  holding: boolean;
  hold: (url: string) => boolean;
  /** Answers waiting now. */
  held(): number;
  /** Lets every waiting answer through. */
  release(): void;
  /** Resolves true once an answer waits (false after `WAIT_BOUND_MS`). */
  waiting(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Asks the simulator at once (the answer is the ledger as it is when the request arrives) and holds the answers
 * `hold` picks: a service slow to answer those requests.
 */
export async function startHoldProxy(upstream: string): Promise<HoldProxy> {
  const waiting: (() => void)[] = [];
  const watchers: (() => void)[] = [];
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    proxy.requests.push(url);
    const held = proxy.holding && proxy.hold(url);
    void fetch(upstream + url)
      .then(async (r) => {
        const body = Buffer.from(await r.arrayBuffer());
        const send = () => {
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(body);
        };
        if (!held) return send();
        waiting.push(send);
        for (const w of watchers.splice(0)) w();
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: HoldProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    holding: false,
    hold: (url) => url.includes('timestamp=lte'),
    held: () => waiting.length,
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
    waiting: () =>
      waiting.length > 0
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(false), WAIT_BOUND_MS);
            watchers.push(() => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
    close: () =>
      new Promise<void>((resolve) => {
        proxy.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
