import { createServer } from 'node:net';

/** A TCP port that was free on 127.0.0.1 a moment ago (the caller must tolerate a rare race). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port found'))));
    });
  });
}
