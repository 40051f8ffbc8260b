import { z } from 'zod';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import { sendStoredFile } from '../../lib/stored-file-reply';
import type { App } from '../../lib/types';
import { getFile } from './get-file';

export function fileRoutes(app: App, deps: AppDeps) {
  app.get(
    '/files/:id',
    {
      // A borrower's own documents (checked by getFile) or any staff member's view of them.
      preValidation: requirePermission('loan.viewOwn', 'backOffice.view'),
      schema: {
        tags: ['files'],
        summary: 'A private document (owner or staff only)',
        params: z.object({ id: z.uuid({ error: 'NOT_FOUND' }) }),
        response: { 200: z.any().describe('The file bytes (image/jpeg or image/png)'), ...errorResponses },
      },
    },
    async (request, reply) => {
      return sendStoredFile(reply, await getFile(deps, currentUser(request), request.params.id));
    },
  );
}
