import { z } from 'zod';
import {
  createUserSchema,
  deleteUserResponse,
  reactivateUserSchema,
  resetPasswordSchema,
  staffUserDto,
  staffUserPage,
  temporaryPasswordResponse,
  updateUserSchema,
  userListQuery,
} from '../../../domain/schemas/staff';
import { requirePermission } from '../../auth/plugin';
import { resetPassword } from '../../auth/reset-password';
import { staffContext } from '../../auth/staff-context';
import type { AppDeps } from '../../deps';
import { answerKey } from '../../lib/answer-cache';
import { errorResponses } from '../../lib/openapi';
import type { App } from '../../lib/types';
import { createUser } from './create-user';
import { deleteUser } from './delete-user';
import { listUsers } from './list-users';
import { reactivateUser } from './reactivate-user';
import { unlockUser } from './unlock-user';
import { updateUser } from './update-user';
import { toStaffUserDto } from './user-dto';

const admins = requirePermission('users.manage');
const idParams = z.object({ id: z.uuid({ error: 'NOT_FOUND' }) });

export function userRoutes(app: App, deps: AppDeps) {
  app.get(
    '/admin/users',
    {
      preValidation: admins,
      schema: {
        tags: ['users'],
        summary: 'Users, newest first; search by phone',
        querystring: userListQuery,
        response: { 200: staffUserPage, ...errorResponses },
      },
    },
    (request) =>
      deps.answerCache.get(answerKey(request), ['login_throttle', 'users'], () =>
        listUsers(deps, request.query),
      ),
  );

  app.post(
    '/admin/users',
    {
      preValidation: admins,
      config: { inputErrorCode: 'USER_FIELDS_REQUIRED' },
      schema: {
        tags: ['users'],
        summary: 'Add a user (temporary password, changed at first login)',
        body: createUserSchema,
        response: { 201: staffUserDto, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(toStaffUserDto(await createUser(deps, staffContext(request), request.body))),
  );

  app.post(
    '/admin/users/:id',
    {
      preValidation: admins,
      config: { inputErrorCode: 'USER_UPDATE_REQUIRED' },
      schema: {
        tags: ['users'],
        summary: 'Update phone and set a temporary password (and optionally the role)',
        params: idParams,
        body: updateUserSchema,
        response: { 200: staffUserDto, ...errorResponses },
      },
    },
    async (request) =>
      toStaffUserDto(await updateUser(deps, staffContext(request), request.params.id, request.body)),
  );

  app.post(
    '/admin/users/:id/reset-password',
    {
      preValidation: admins,
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['users'],
        summary: 'Reset a password: returns a temporary one; all sessions end',
        params: idParams,
        body: resetPasswordSchema,
        response: { 200: temporaryPasswordResponse, ...errorResponses },
      },
    },
    async (request) => ({
      temporaryPassword: await resetPassword(deps, staffContext(request), request.params.id, {
        reason: request.body.reason,
      }),
    }),
  );

  app.post(
    '/admin/users/:id/reactivate',
    {
      preValidation: admins,
      config: { inputErrorCode: 'REASON_REQUIRED' },
      schema: {
        tags: ['users'],
        summary: 'Reactivate a deactivated user with a reason: returns a temporary password',
        params: idParams,
        body: reactivateUserSchema,
        response: { 200: temporaryPasswordResponse, ...errorResponses },
      },
    },
    async (request) => ({
      temporaryPassword: await reactivateUser(
        deps,
        staffContext(request),
        request.params.id,
        request.body.reason,
      ),
    }),
  );

  app.post(
    '/admin/users/:id/unlock',
    {
      preValidation: admins,
      schema: {
        tags: ['users'],
        summary: 'End a login lockout at once (failed logins forgotten); audited',
        params: idParams,
        response: { 200: staffUserDto, ...errorResponses },
      },
    },
    (request) => unlockUser(deps, staffContext(request), request.params.id),
  );

  app.delete(
    '/admin/users/:id',
    {
      preValidation: admins,
      schema: {
        tags: ['users'],
        summary: 'Delete a user, or deactivate one who owns records',
        params: idParams,
        response: { 200: deleteUserResponse, ...errorResponses },
      },
    },
    async (request) => ({ outcome: await deleteUser(deps, staffContext(request), request.params.id) }),
  );
}
