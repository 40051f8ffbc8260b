import { type Kysely, sql } from 'kysely';

/**
 * Accounts keep a phone in one form (issue #32, src/domain/phone.ts): a Philippine mobile number as
 * "09171234567". Sign-up used to take any 10–15 digits, so a number may have been stored as 639171234567,
 * 6309171234567 or 9171234567; sign-in now reads every writing as 09…, and would no longer find those
 * accounts. Each is rewritten to the one form, unless that form already belongs to an account (or two old
 * accounts would both become it): one person with two accounts, signing in to the one already in the one
 * form; an administrator sorts out the other. Numbers that are no Philippine mobile number (a landline, a
 * number abroad) are left alone and still sign in as typed.
 * Applications keep the phone as submitted (a record of what the borrower wrote). Nothing to undo: the
 * old forms are not kept, and the one form signs in with every writing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    with candidates as (
      select id, '0' || right(phone, 10) as canonical
      from users
      where phone ~ '^(63|630)?(9[0-9]{9}|81[37][0-9]{7})$'
    )
    update users u set phone = c.canonical
    from candidates c
    where u.id = c.id
      and not exists (select 1 from users o where o.phone = c.canonical)
      and (select count(*) from candidates d where d.canonical = c.canonical) = 1`.execute(db);
}

/**
 * Nothing to put back (above), but a down all the same: without one, the migrator keeps this migration's
 * record when it rolls back past it, and then refuses every later migrate as corrupted.
 */
export async function down(): Promise<void> {}
