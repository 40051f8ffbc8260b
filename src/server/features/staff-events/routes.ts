import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import { z } from 'zod';
import { awaitingDecisionStatuses } from '../../../domain/loan/status';
import { requirePermission } from '../../auth/plugin';
import { isSessionLive } from '../../auth/sessions';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';

const HEARTBEAT_MS = 25_000;
const COALESCE_MS = 200;

export async function pendingCount(deps: AppDeps): Promise<number> {
  const row = await deps.db
    .selectFrom('applications')
    .select(sql<number>`count(*)`.as('count'))
    .where('status', 'in', awaitingDecisionStatuses)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Live back-office updates as server-sent events: `pending` with the pending count, sent on connect and
 * whenever an application is submitted or decided (on any instance). The client also polls every 30 s.
 */
export function staffEventRoutes(app: App, deps: AppDeps) {
  const streams = new Set<ServerResponse>();
  // preClose, not onClose: an open stream is an in-flight request, so the server would wait for it forever.
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
  });

  app.get(
    '/staff/pending-count',
    {
      config: { unattended: true },
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'Number of pending applications (poll fallback for the live badge)',
        response: { 200: z.object({ count: z.number() }), ...errorResponses },
      },
    },
    async () => ({ count: await pendingCount(deps) }),
  );

  app.get(
    '/staff/events',
    {
      config: { unattended: true },
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary: 'Server-sent events: pending count changes (HEAD answers the headers only)',
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      if (request.method === 'HEAD') {
        // A HEAD request gets the stream's headers and no stream (it would never end).
        return reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          .send();
      }
      const session = request.auth!;
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      streams.add(out);

      let timer: NodeJS.Timeout | undefined;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        streams.delete(out);
        clearTimeout(timer);
        clearInterval(heartbeat);
        unsubscribe();
        out.end();
      };
      const sendCount = async () => {
        try {
          if (!(await isSessionLive(deps.db, session.idHash, session.user.role))) return close();
          const count = await pendingCount(deps);
          if (!closed) out.write(`event: pending\ndata: ${JSON.stringify({ count })}\n\n`);
        } catch (error) {
          request.log.warn({ err: error }, 'staff event stream failed');
          close();
        }
      };
      const unsubscribe = deps.events.subscribe(() => {
        // A burst of changes becomes one message.
        clearTimeout(timer);
        timer = setTimeout(() => void sendCount(), COALESCE_MS);
      });
      const heartbeat = setInterval(() => {
        void isSessionLive(deps.db, session.idHash, session.user.role).then(
          (live) => (live ? out.write(': keep-alive\n\n') : close()),
          () => close(),
        );
      }, HEARTBEAT_MS);
      request.raw.on('close', close);
      out.write('retry: 5000\n\n');
      await sendCount();
    },
  );
}
