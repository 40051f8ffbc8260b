/**
 * The environment every test server process starts with (API process tests, the two-instance test, e2e),
 * on top of PORT and whatever a test sets itself. Every test caller is 127.0.0.1, so the per-address
 * ceilings on codes, logins, uploads and withdrawals would throttle the suite rather than test anything;
 * race tests fire hundreds of withdrawals for one borrower; and staff sign in with a password alone unless a
 * test exercises the second factor (it then sets STAFF_2FA_REQUIRED_ROLES itself).
 */
export const testProcessEnv = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  CODE_LIMIT_PER_IP_PER_HOUR: '100000',
  CODE_LIMIT_GLOBAL_PER_HOUR: '1000000',
  RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: '1000000',
  RATE_LIMIT_UPLOADS_PER_IP_PER_HOUR: '1000000',
  RATE_LIMIT_UPLOADS_PER_ACCOUNT_PER_HOUR: '1000000',
  RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR: '1000000',
  RATE_LIMIT_WITHDRAWALS_PER_ACCOUNT_PER_HOUR: '1000000',
  LOGIN_FAILURES_PER_IP: '100000',
  STAFF_2FA_REQUIRED_ROLES: 'none',
} as const;
