import {
  languageChangedResponse,
  languageChangeSchema,
  meResponse,
  smsPreferencesSchema,
} from '../../../domain/schemas/user';
import { accountResponse, avatarSchema } from '../../../domain/schemas/wallet';
import { currentUser, requirePermission } from '../../auth/plugin';
import type { AppDeps } from '../../deps';
import { errorResponses } from '../../lib/openapi';
import { rateLimit } from '../../lib/rate-limits';
import type { App } from '../../lib/types';
import { toUserDto } from '../../lib/user-dto';
import { getAccount } from './get-account';
import { setAvatar } from './set-avatar';
import { setLanguage } from './set-language';
import { getSmsPreferences, setSmsPreferences } from './sms-preferences';

export function accountRoutes(app: App, deps: AppDeps) {
  app.get(
    '/account',
    {
      preValidation: requirePermission('account.viewOwn'),
      schema: {
        tags: ['account'],
        summary: "The borrower's profile, credit score, loan summary and support e-mail",
        response: { 200: accountResponse, ...errorResponses },
      },
    },
    (request) => getAccount(deps, currentUser(request).id),
  );

  app.post(
    '/account/avatar',
    {
      preValidation: [
        requirePermission('profile.editOwn'),
        rateLimit(deps.db, 'uploads', deps.config.rateLimits.uploads),
      ],
      config: { inputErrorCode: 'AVATAR_INVALID' },
      schema: {
        tags: ['account'],
        summary: 'Choose one of the five preset avatars (any signed-in user)',
        body: avatarSchema,
        response: { 200: meResponse, ...errorResponses },
      },
    },
    async (request) => {
      const user = await setAvatar(deps, currentUser(request).id, request.body.avatar);
      return { user: toUserDto(user, deps.config.privacy.noticeVersion), csrfToken: request.auth!.csrfToken };
    },
  );

  app.post(
    '/account/language',
    {
      preValidation: requirePermission('profile.editOwn'),
      schema: {
        tags: ['account'],
        summary:
          'The language the user switched the app to: every SMS the server sends them is written in it (any signed-in user)',
        body: languageChangeSchema,
        response: { 200: languageChangedResponse, ...errorResponses },
      },
    },
    (request) => setLanguage(deps, currentUser(request).id, request.body.language),
  );

  app.get(
    '/account/sms-preferences',
    {
      preValidation: requirePermission('profile.editOwn'),
      schema: {
        tags: ['account'],
        summary: 'Whether the signed-in user gets the SMS they may turn off (their own setting only)',
        response: { 200: smsPreferencesSchema, ...errorResponses },
      },
    },
    (request) => getSmsPreferences(deps, currentUser(request).id),
  );

  app.post(
    '/account/sms-preferences',
    {
      preValidation: requirePermission('profile.editOwn'),
      schema: {
        tags: ['account'],
        summary:
          'Turn the optional SMS (a declined application, complaint replies) off or on; money and action messages always go (docs/decisions/041)',
        body: smsPreferencesSchema,
        response: { 200: smsPreferencesSchema, ...errorResponses },
      },
    },
    (request) => setSmsPreferences(deps, currentUser(request).id, request.body),
  );
}
