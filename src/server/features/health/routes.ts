import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { checkReadiness } from './check-readiness';

/** The database kind, named outside production only (issue #15: production tells a stranger nothing). */
const dbKind = z.enum(['pglite', 'postgres']).optional();

export function healthRoutes(app: App, deps: AppDeps) {
  const shownDb = () => (deps.config.env === 'production' ? {} : { db: deps.dbKind });
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process answers (no database call, so a database outage restarts nothing)',
        response: { 200: z.object({ status: z.literal('ok'), db: dbKind }) },
      },
    },
    async () => ({ status: 'ok' as const, ...shownDb() }),
  );

  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and its migrations are current (else 503 NOT_READY)',
        response: {
          200: z.object({ status: z.literal('ready'), db: dbKind }),
          ...errorResponses,
        },
      },
    },
    async () => {
      await checkReadiness(deps);
      return { status: 'ready' as const, ...shownDb() };
    },
  );
}
