import { z } from 'zod';
import { AppError } from '../../../domain/errors';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';

const loopback = (address: string | undefined) =>
  address !== undefined && (/^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address));

/**
 * Development and test only (DEV_OUTBOX): the SMS messages "sent" to a phone, newest first. The codes in
 * them are the borrowers' (issue #15): only a caller on this machine reads them, judged by both the client
 * address and the connection's own peer (so neither a forged X-Forwarded-For nor a proxy on this machine
 * opens it to the network); anyone else gets "not found".
 */
export function devOutboxRoutes(app: App, deps: AppDeps) {
  app.get(
    '/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Messages sent to a phone (development outbox)',
        querystring: z.object({ phone: z.string().regex(/^\d{1,15}$/) }),
        response: {
          ...errorResponses,
          200: z.object({
            messages: z.array(
              z.object({ phone: z.string(), text: z.string(), purpose: z.string(), sentAt: z.string() }),
            ),
          }),
        },
      },
    },
    async (request) => {
      if (!loopback(request.ip) || !loopback(request.socket.remoteAddress)) throw new AppError('NOT_FOUND');
      return { messages: deps.notifier.outbox?.(request.query.phone) ?? [] };
    },
  );
}
