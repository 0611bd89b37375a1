// A TCP proxy on 127.0.0.1:0 that can be cut: a network partition between one process and a server (PostgreSQL)
// while everything else still reaches it. Cut, bytes stop flowing both ways and new connections hang unanswered,
// the way a lost route looks (no reset to react to); heal() lets new connections through again.
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  let cut = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (cut) return client.pause();
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    const forward = (from: Socket, to: Socket) =>
      from.on('data', (chunk: Buffer) => void (cut || to.write(chunk)));
    forward(client, upstream);
    forward(upstream, client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => void (cut = true),
    heal: () => void (cut = false),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
