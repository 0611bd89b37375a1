// A local stand-in for Slack's incoming webhooks: answers `ok` and counts what it received, so the demo shows
// alerts leaving through a real HTTP notifier without a Slack workspace.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DemoSlackSink {
  readonly url: string;
  /** Messages received, by webhook path. */
  received(): number;
  close(): Promise<void>;
}

export async function startDemoSlackSink(): Promise<DemoSlackSink> {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const ok = req.method === 'POST' && (req.url ?? '').startsWith('/services/');
      if (ok) count += 1;
      res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'no_service');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
