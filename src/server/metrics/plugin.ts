import type { ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../../domain/errors';
import type { CredentialChecks } from '../auth/attempt-limits';
import type { App } from '../lib/types';
import { type MetricsAccess, metricsGate } from './access';

/** A PostgreSQL pool's connections: open, idle, and requests waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

const EVENT_STREAM_ROUTE = '/api/staff/events';

/**
 * Prometheus metrics at `GET /metrics` (docs/decisions/021): requests and their latency per route
 * pattern (never the raw URL, so ids do not multiply the series), the database pool, open back-office
 * event streams, and Node's own process figures. Readable only from METRICS_ALLOW networks or with
 * `Authorization: Bearer <METRICS_TOKEN>` (403 otherwise); with neither set it answers 404.
 * Each app has its own registry, so several apps in one process (tests) do not share counters.
 */
export function registerMetrics(
  app: App,
  options: { access: MetricsAccess; credentialChecks: CredentialChecks; poolStats?: () => PoolStats },
) {
  if (options.access.allow.length === 0 && !options.access.token) {
    // Off: a plain 404, not the web app's page (which any other unknown path gets).
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
      reply.status(404).send(new AppError('NOT_FOUND').toBody()),
    );
    return;
  }
  const allowed = metricsGate(options.access);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'hiram_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'hiram_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status code',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // A burst of guesses at passwords, second factors or codes shows here whatever the answers were.
  const checks = new Counter({
    name: 'hiram_credential_checks_total',
    help: 'Secrets checked (password, second_factor, code), after the failed-attempt limits let them through',
    labelNames: ['kind'],
    registers: [registry],
  });
  const stopCounting = options.credentialChecks.onCheck((kind) => checks.inc({ kind }));
  app.addHook('onClose', async () => stopCounting());

  const streams = new Set<ServerResponse>();
  new Gauge({
    name: 'hiram_event_stream_clients',
    help: 'Open back-office live-update streams (/api/staff/events) on this instance',
    registers: [registry],
    collect() {
      let open = 0;
      for (const stream of streams) if (stream.headersSent && stream.statusCode === 200) open += 1;
      this.set(open);
    },
  });
  const poolStats = options.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'hiram_db_pool_connections',
      help: 'PostgreSQL pool of this instance: total (open), idle, and waiting (requests queued for a connection)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const stats = poolStats();
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'GET' && request.routeOptions.url === EVENT_STREAM_ROUTE) {
      const stream = reply.raw;
      streams.add(stream);
      stream.once('close', () => streams.delete(stream));
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      // Unmatched URLs (404s, scanners) share one series.
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request.ip, request.headers.authorization)) {
      return reply.status(403).send(new AppError('FORBIDDEN').toBody());
    }
    return reply.header('content-type', registry.contentType).send(await registry.metrics());
  });
}
