import type { AppDeps } from '../../deps';

export function setAvatar(deps: AppDeps, userId: string, avatar: number) {
  return deps.db
    .updateTable('users')
    .set({ avatar })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
