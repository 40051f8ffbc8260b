import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Makes the codes sent to `phone` older, as if `age` had passed: by default past the 60 s resend wait, so the
 * next code goes out at once (the wait itself is covered by the sign-up tests).
 */
export async function ageVerificationCodes(
  db: Kysely<Database>,
  phone: string,
  age: '2 minutes' | '2 days' = '2 minutes',
): Promise<void> {
  await db
    .updateTable('verification_codes')
    .set({ created_at: sql`created_at - cast(${age} as interval)` })
    .where('phone', '=', phone)
    .execute();
}
