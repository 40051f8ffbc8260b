import { type Kysely, sql } from 'kysely';

/**
 * Forgotten passwords (issue #15): a code sent to the account's phone, purpose `password_reset`, kept in
 * verification_codes beside the sign-up and withdrawal codes (same rules, same table).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table verification_codes drop constraint verification_codes_purpose_check`.execute(db);
  await sql`
    alter table verification_codes add constraint verification_codes_purpose_check
      check (purpose in ('signup', 'withdrawal', 'password_reset'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from verification_codes where purpose = 'password_reset'`.execute(db);
  await sql`alter table verification_codes drop constraint verification_codes_purpose_check`.execute(db);
  await sql`
    alter table verification_codes add constraint verification_codes_purpose_check
      check (purpose in ('signup', 'withdrawal'))`.execute(db);
}
