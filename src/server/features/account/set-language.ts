import type { Language } from '../../../domain/languages';
import type { AppDeps } from '../../deps';

/**
 * The signed-in user switched the app's language: everything the server sends them from now on (codes,
 * reminders, complaint replies) is written in it (issue #36). Their own preference, so not audited.
 */
export async function setLanguage(deps: AppDeps, userId: string, language: Language) {
  await deps.db.updateTable('users').set({ language }).where('id', '=', userId).execute();
  return { language };
}
