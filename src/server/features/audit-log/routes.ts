import { todayIn } from '../../../domain/date-text';
import { auditCsvQuery, auditPage, auditQuery } from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { exportAuditCsv } from './export-audit-csv';
import { listAuditEvents } from './list-audit-events';

const auditors = requirePermission('audit.view');

export function auditLogRoutes(app: App, deps: AppDeps) {
  app.get(
    '/admin/audit',
    {
      preValidation: auditors,
      schema: {
        tags: ['audit'],
        summary: 'Audit log, newest first; filter by actor, action, loan number and date range',
        querystring: auditQuery,
        response: { 200: auditPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(answerKey(request), ['applications', 'audit_events'], () =>
        listAuditEvents(deps, request.query),
      ),
  );

  app.get(
    '/admin/audit.csv',
    {
      preValidation: auditors,
      schema: {
        tags: ['audit'],
        summary: 'The filtered audit rows as CSV (streamed)',
        querystring: auditCsvQuery,
      },
    },
    async (request, reply) => {
      // Awaited before the headers: the query is checked and its first rows read before the first byte.
      const csv = await exportAuditCsv(deps, request.query, request.query.lang, request.log);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header(
          'content-disposition',
          `attachment; filename="hiram-audit-${todayIn(deps.config.timeZone)}.csv"`,
        )
        .send(csv);
    },
  );
}
