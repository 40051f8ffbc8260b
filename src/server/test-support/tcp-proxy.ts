import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server that can go quiet the way a dropped network path does: `freeze()` keeps
 * every connection open but carries no more bytes either way, and new connections are accepted and never
 * reach the server. `thaw()` ends the connections the freeze broke and carries new ones again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let frozen = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  // Half-open allowed: a frozen path must not answer a FIN either, or a polite close would still complete.
  const server = createServer({ allowHalfOpen: true }, (client) => {
    track(client);
    if (frozen) return;
    const upstream = connect({ port: target.port, host: target.host, allowHalfOpen: true });
    track(upstream);
    client.on('end', () => {
      if (!frozen) upstream.end();
    });
    upstream.on('end', () => {
      if (!frozen) client.end();
    });
    client.on('data', (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!frozen) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const socket of sockets) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
