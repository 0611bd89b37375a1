// A real HTTP receiver (127.0.0.1:0) that holds every response until the test releases it, so what a worker has
// on the wire at a given moment is a fact the test controls rather than a race. It records every request body and
// counts requests the client gave up on (aborted before an answer). Tests wait on these events, never on time.
import { once, EventEmitter } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldingSink {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Bodies of every request received, in order: answered, held or aborted. */
  readonly bodies: readonly string[];
  /** Requests the client aborted before they were answered. */
  aborted(): number;
  /** Resolves when `count` requests in all have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** Resolves when `count` requests in all were aborted by the client. */
  waitForAborts(count: number): Promise<void>;
  /** Answers the held requests with 200, and from now on answers at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startHoldingSink(): Promise<HoldingSink> {
  const bodies: string[] = [];
  const held = new Set<ServerResponse>();
  const events = new EventEmitter();
  let releasing = false;
  let aborted = 0;
  const answer = (res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.on('close', () => {
        held.delete(res);
        if (res.writableEnded) return;
        aborted += 1;
        events.emit('abort');
      });
      if (releasing) answer(res);
      else held.add(res);
      events.emit('request');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    bodies,
    aborted: () => aborted,
    async waitForRequests(count) {
      while (bodies.length < count) await once(events, 'request');
    },
    async waitForAborts(count) {
      while (aborted < count) await once(events, 'abort');
    },
    release() {
      releasing = true;
      for (const res of held) answer(res);
      held.clear();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
