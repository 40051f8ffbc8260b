import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { CodePurpose } from '../../domain/codes';
import type { Role, UserStatus } from '../../domain/roles';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  username: string | null;
  phone: string | null;
  password_hash: string;
  role: Role;
  status: ColumnType<UserStatus, UserStatus | undefined, UserStatus>;
  must_change_password: ColumnType<boolean, boolean | undefined, boolean>;
  avatar: ColumnType<number, number | undefined, number>;
  created_at: CreatedAt;
  last_login_at: Timestamp | null;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  csrf_token: string;
  created_at: CreatedAt;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  ip: string | null;
  user_agent: string | null;
}

export interface VerificationCodesTable {
  id: Generated<string>;
  phone: string;
  purpose: CodePurpose;
  code_hash: string;
  /** What the code was issued for (e.g. a withdrawal's amount and destination), hashed into code_hash. */
  context: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  used_at: Timestamp | null;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_started_at: Timestamp;
  locked_until: Timestamp | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  verification_codes: VerificationCodesTable;
  login_throttle: LoginThrottleTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
