/**
 * One instance against two (issue #11): the same list workload (the pending list, page 1) on one server,
 * then split over two servers on the same PostgreSQL, with the same total number of connections. On a
 * 2-core machine with PostgreSQL beside them this is read as a ratio; there is no target.
 */
import autocannon from 'autocannon';

async function requestsPerSecond(
  urls: string[],
  path: string,
  headers: Record<string, string>,
  opts: { connections: number; duration: number },
) {
  const share = Math.max(1, Math.floor(opts.connections / urls.length));
  const results = await Promise.all(
    urls.map(
      (url) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          autocannon(
            { url: `${url}${path}`, headers, connections: share, duration: opts.duration },
            (error, result) => (error ? reject(error) : resolve(result)),
          );
        }),
    ),
  );
  const good = results.reduce((sum, r) => sum + r['2xx'], 0);
  const bad = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0);
  const seconds = Math.max(...results.map((r) => r.duration));
  return { rps: good / seconds, bad };
}

export async function benchTwoInstances(
  log: (message: string) => void,
  options: {
    first: string;
    /** Starts a second server on the same database; returns its URL and a stop function. */
    startSecond: () => Promise<{ url: string; stop: () => Promise<unknown> }>;
    headers: Record<string, string>;
    connections: number;
    duration: number;
  },
) {
  const path = '/api/staff/applications/pending';
  const second = await options.startSecond();
  try {
    const opts = { connections: options.connections, duration: options.duration };
    const one = await requestsPerSecond([options.first], path, options.headers, opts);
    const two = await requestsPerSecond([options.first, second.url], path, options.headers, opts);
    log(
      `\n-- one instance vs two on the same PostgreSQL: pending list, page 1, ${options.connections} connections in all`,
    );
    log('| instances | req/s | non-2xx or errors | × one instance |');
    log('|---:|---:|---:|---:|');
    log(`| 1 | ${one.rps.toFixed(0)} | ${one.bad} | 1.00 |`);
    log(`| 2 | ${two.rps.toFixed(0)} | ${two.bad} | ${(two.rps / one.rps).toFixed(2)} |`);
  } finally {
    await second.stop();
  }
}
