import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { CredentialChecks } from './auth/attempt-limits';
import type { SessionCache } from './auth/session-cache';
import type { SessionRow } from './auth/sessions';
import type { Config } from './config';
import type { DbKind } from './db/open';
import type { Database } from './db/schema';
import type { EventBus } from './events/bus';
import type { AnswerCache } from './lib/answer-cache';
import type { Clock } from './lib/clock';
import type { InFlightGate } from './lib/in-flight-gate';
import type { BroadSearches } from './lib/paging';
import type { Notifier } from './notify/notifier';
import type { FileStorage } from './storage/storage';

/** What use cases need from the outside world; built once at start, passed down explicitly. */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  dbKind: DbKind;
  notifier: Notifier;
  storage: FileStorage;
  events: EventBus;
  /** The app's logger, for work that outlives a request's answer (e.g. after-commit events). */
  log: FastifyBaseLogger;
  /** The real time; only tests pass another one (never settable from the API). */
  clock: Clock;
  /** Requests for one record (a decision, a withdrawal) wait for the one in flight (docs/decisions/024). */
  perRecord: InFlightGate;
  /** Session lookups read moments ago (docs/decisions/027); emptied by every write request and change notice. */
  sessionCache: SessionCache<SessionRow>;
  /** Back-office answers read moments ago (docs/decisions/030); emptied like the session cache. */
  answerCache: AnswerCache;
  /** Back-office searches known moments ago to match more than their list sorts (docs/decisions/051). */
  broadSearches: BroadSearches;
  /** Secrets this instance has checked (passwords, second factors, codes), by kind (issue #33). */
  credentialChecks: CredentialChecks;
}
