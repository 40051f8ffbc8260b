import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { runningStatuses } from '../../domain/loan/status';
import { dateLiteral, sqlList } from '../lib/sql-lists';

/*
 * Reading the stored loan facts (migration 008, docs/decisions/012) for a given day in SQL. Every statement
 * over the loan book goes through these, so the overdue queue and the dashboard agree, and the predicates
 * match the partial indexes (status written as literals of `runningStatuses`).
 */

/** A running loan (approved, on hold) with an instalment not fully paid: the overdue queue's index. */
export const unpaidRunningLoanSql = (table = 'applications'): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(`${table}.status`)} in (${sqlList(runningStatuses)}) and ${sql.ref(`${table}.next_due_on`)} is not null`;

/** A running loan whose facts were computed (it has been paid out): the portfolio index. */
export const runningLoanWithFactsSql = (table = 'applications'): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(`${table}.status`)} in (${sqlList(runningStatuses)}) and ${sql.ref(`${table}.facts_as_of`)} is not null`;

/**
 * Principal not yet repaid on `today`: money paid ahead stops being owed the day it arrives, and what the
 * next instalment's interest turns back into owed principal counts from its due date (migration 024).
 */
export const outstandingPrincipalSql = (today: string, table = 'applications'): RawBuilder<number> =>
  sql<number>`(${sql.ref(`${table}.outstanding_principal_minor`)} + case when ${sql.ref(`${table}.principal_step_on`)} <= ${dateLiteral(today)} then ${sql.ref(`${table}.principal_step_minor`)} else 0 end)`;

/**
 * Overdue on `today` by the loan's own grace days (`overdue_from`, migration 024): the one meaning of overdue
 * the queue, the dashboard and PAR share with the loan page (issue #31). Beside `unpaidRunningLoanSql`.
 */
export const overdueOnSql = (today: string, table = 'applications'): RawBuilder<SqlBool> =>
  sql<SqlBool>`${sql.ref(`${table}.overdue_from`)} <= ${dateLiteral(today)}`;
