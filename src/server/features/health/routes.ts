import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { checkReadiness } from './check-readiness';

export function healthRoutes(app: App, deps: AppDeps) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (no database call, so a database outage restarts nothing)',
        response: { 200: z.object({ status: z.literal('ok'), db: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => ({ status: 'ok' as const, db: deps.dbKind }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and its migrations are current (else 503 NOT_READY)',
        response: {
          200: z.object({ status: z.literal('ready'), db: z.enum(['pglite', 'postgres']) }),
          ...errorResponses,
        },
      },
    },
    async () => {
      await checkReadiness(deps);
      return { status: 'ready' as const, db: deps.dbKind };
    },
  );
}
