import { z } from 'zod';
import {
  complaintAssigneesResponse,
  complaintAssignSchema,
  complaintListQuery,
  complaintPage,
  complaintReplySchema,
  complaintResolveSchema,
  myComplaintDto,
  myComplaintsResponse,
  staffComplaintDto,
} from '../../../domain/schemas/complaints';
import { currentUser, requirePermission } from '../../auth/plugin';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { readMultipart } from '../../lib/multipart';
import { errorResponses } from '../../lib/openapi';
import { sendStoredFile } from '../../lib/stored-file-reply';
import type { App } from '../../lib/types';
import { imagePolicy } from '../../storage/images';
import { fileComplaint } from './file-complaint';
import { getComplaint, getComplaintPicture } from './get-complaint';
import { assignComplaint, listAssignees, replyToComplaint, resolveComplaint } from './handle-complaint';
import { listComplaints } from './list-complaints';
import { myComplaints } from './list-my-complaints';

const idParams = z.object({ id: z.uuid({ error: 'COMPLAINT_NOT_FOUND' }) });
const pictureResponse = { 200: z.any().describe('The picture (image/jpeg)'), ...errorResponses };

export function complaintRoutes(app: App, deps: AppDeps) {
  app.get(
    '/complaints',
    {
      preValidation: requirePermission('complaint.fileOwn'),
      schema: {
        tags: ['complaints'],
        summary: "The borrower's own complaints, newest first, with status, every reply and the resolution",
        response: { 200: myComplaintsResponse, ...errorResponses },
      },
    },
    async (request) => ({ complaints: await myComplaints(deps, currentUser(request).id) }),
  );

  app.post(
    '/complaints',
    {
      preValidation: requirePermission('complaint.fileOwn'),
      schema: {
        tags: ['complaints'],
        summary: 'File a complaint (multipart: category, text, optional picture); answers its reference',
        consumes: ['multipart/form-data'],
        response: { 201: myComplaintDto, ...errorResponses },
      },
    },
    async (request, reply) => {
      const form = await readMultipart(
        request,
        { fileSize: imagePolicy.maxBytes, files: 1, fields: 4, fieldSize: 16_384 },
        { fileTooLarge: 'IMAGE_TOO_LARGE', invalid: 'VALIDATION_FAILED' },
        ['picture'],
      );
      return reply.status(201).send(await fileComplaint(deps, currentUser(request), form));
    },
  );

  app.get(
    '/complaints/:id/picture',
    {
      preValidation: requirePermission('complaint.fileOwn'),
      schema: {
        tags: ['complaints'],
        summary: "The picture of the borrower's own complaint",
        params: z.object({ id: z.uuid({ error: 'NOT_FOUND' }) }),
        response: pictureResponse,
      },
    },
    async (request, reply) => {
      const file = await getComplaintPicture(deps, request.params.id, currentUser(request).id);
      return sendStoredFile(reply, file);
    },
  );

  app.get(
    '/staff/complaints',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary:
          'Complaints queue: open ones (or a status, or all) oldest first; search reference, name, phone',
        querystring: complaintListQuery,
        response: { 200: complaintPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(
        answerKey(request),
        ['applications', 'complaint_replies', 'complaints', 'users'],
        () => listComplaints(deps, request.query),
      ),
  );

  app.get(
    '/staff/complaints/assignees',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: 'Active officers and admins a complaint can be assigned to',
        response: { 200: complaintAssigneesResponse, ...errorResponses },
      },
    },
    () => listAssignees(deps),
  );

  app.get(
    '/staff/complaints/:id',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: 'One complaint with its whole thread',
        params: idParams,
        response: { 200: staffComplaintDto, ...errorResponses },
      },
    },
    (request) => getComplaint(deps, request.params.id),
  );

  app.get(
    '/staff/complaints/:id/picture',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: "A complaint's picture",
        params: z.object({ id: z.uuid({ error: 'NOT_FOUND' }) }),
        response: pictureResponse,
      },
    },
    async (request, reply) => sendStoredFile(reply, await getComplaintPicture(deps, request.params.id, null)),
  );

  app.post(
    '/staff/complaints/:id/replies',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: 'Reply to a complaint (shown to the borrower, who is told by SMS); audited',
        params: idParams,
        body: complaintReplySchema,
        response: { 200: staffComplaintDto, ...errorResponses },
      },
    },
    (request) => replyToComplaint(deps, staffContext(request), request.params.id, request.body.message),
  );

  app.post(
    '/staff/complaints/:id/assign',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: 'Assign a complaint to an officer or admin; audited',
        params: idParams,
        body: complaintAssignSchema,
        response: { 200: staffComplaintDto, ...errorResponses },
      },
    },
    (request) => assignComplaint(deps, staffContext(request), request.params.id, request.body.assigneeId),
  );

  app.post(
    '/staff/complaints/:id/resolve',
    {
      preValidation: requirePermission('complaint.handle'),
      schema: {
        tags: ['back office'],
        summary: 'Resolve a complaint with a resolution note (once); audited, the borrower is told by SMS',
        params: idParams,
        body: complaintResolveSchema,
        response: { 200: staffComplaintDto, ...errorResponses },
      },
    },
    (request) => resolveComplaint(deps, staffContext(request), request.params.id, request.body.note),
  );
}
