import { sql } from 'kysely';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { App } from '../../lib/types';

export function healthRoutes(app: App, deps: AppDeps) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: { 200: z.object({ status: z.literal('ok'), db: z.enum(['pglite', 'postgres']) }) },
      },
    },
    async () => {
      await sql`select 1`.execute(deps.db);
      return { status: 'ok' as const, db: deps.dbKind };
    },
  );
}
