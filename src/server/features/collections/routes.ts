import { overdueListQuery, overduePage } from '../../../domain/schemas/portfolio';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import { nameSearchScope, queueReads } from '../../lib/paging';
import type { App } from '../../lib/types';
import { countOverdueBuckets, listOverduePage } from './list-overdue-loans';

export function collectionRoutes(app: App, deps: AppDeps) {
  app.get(
    '/staff/overdue',
    {
      preValidation: requirePermission('backOffice.view'),
      schema: {
        tags: ['back office'],
        summary:
          'Overdue queue: running loans past a due date, most days past due first; search by name, phone, ' +
          'loan number; filter by days-past-due bucket; bucket counts over the whole book',
        querystring: overdueListQuery,
        response: { 200: overduePage, ...errorResponses },
      },
    },
    async (request) => {
      // The page holds only the search's borrowers; the bucket counts, the whole queue's, are shared by
      // every overdue answer (docs/decisions/067).
      const [page, buckets] = await Promise.all([
        deps.answerCache.get(
          answerKey(request),
          queueReads(['applications'], request.query),
          () => listOverduePage(deps, request.query),
          nameSearchScope(request.query),
        ),
        deps.answerCache.get('overdue buckets', ['queue_counts'], () => countOverdueBuckets(deps)),
      ]);
      return { ...page, ...buckets };
    },
  );
}
