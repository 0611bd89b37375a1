// A real HTTP server on 127.0.0.1:0 that records every request and answers from a script: the receiving end
// for the webhook, Slack and Alertmanager notifier tests. Tests wait on requests, never on time.
import { once, EventEmitter } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A request and what the sink answered. */
export interface AnsweredRequest extends RecordedRequest {
  readonly answer: SinkResponse;
}

export interface SinkResponse {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Destroy the socket instead of answering (a reset connection). */
  readonly reset?: boolean;
}

export type Responder = (request: RecordedRequest) => SinkResponse;

export interface HttpSink {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: AnsweredRequest[];
  /** Answers the next requests in order with these; afterwards the default responder answers. */
  script(...responses: SinkResponse[]): void;
  /** Resolves when `count` requests in all have arrived. */
  waitForRequests(count: number): Promise<AnsweredRequest[]>;
  close(): Promise<void>;
}

export async function startHttpSink(
  fallback: Responder = () => ({ status: 200, body: 'ok' }),
): Promise<HttpSink> {
  const requests: AnsweredRequest[] = [];
  const queue: SinkResponse[] = [];
  const events = new EventEmitter();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = queue.shift() ?? fallback(request);
      requests.push({ ...request, answer });
      if (answer.reset) res.socket?.destroy();
      else
        res
          .writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
          .end(answer.body ?? '');
      events.emit('request');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    script: (...responses) => queue.push(...responses),
    async waitForRequests(count) {
      while (requests.length < count) await once(events, 'request');
      return requests.slice(0, count);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 with nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
