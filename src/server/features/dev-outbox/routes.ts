import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';

/** Development and test only (DEV_OUTBOX): the SMS messages "sent" to a phone, newest first. */
export function devOutboxRoutes(app: App, deps: AppDeps) {
  app.get(
    '/dev/outbox',
    {
      schema: {
        tags: ['development'],
        summary: 'Messages sent to a phone (development outbox)',
        querystring: z.object({ phone: z.string().regex(/^\d{1,15}$/) }),
        response: {
          200: z.object({
            messages: z.array(
              z.object({ phone: z.string(), text: z.string(), purpose: z.string(), sentAt: z.string() }),
            ),
          }),
        },
      },
    },
    async (request) => ({ messages: deps.notifier.outbox?.(request.query.phone) ?? [] }),
  );
}
