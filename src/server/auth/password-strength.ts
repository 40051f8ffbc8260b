import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AppError } from '../../domain/errors';

/**
 * How many guesses (log10) zxcvbn must estimate for a new password: 10^8, what an 8-character password
 * with no known pattern reaches. Common and breached passwords from its dictionaries, and simple patterns
 * around them (keyboard rows, dates, sequences, repeats, l33t spellings, a word plus digits), stay far
 * below (e.g. "password1" 10^2.4, "Summer2024" 10^4.2). Its 0–4 score would not do: score 3 starts just
 * above 10^8, so it would refuse every 8-character password, however random.
 */
const minimumGuessesLog10 = 8;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The dictionaries take ~0.5 s and some MB to load: only when the first new password is checked. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]).then(
    ([{ ZxcvbnFactory }, common, en]) =>
      new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
      }),
  );
  return estimator;
}

/**
 * The one password-strength rule (issue #15), for every password a person chooses or an admin types:
 * sign-up, change password, forgotten-password reset, staff accounts and their temporary passwords.
 * `userInputs` (the account's phone, username) count as guessable. Throws PASSWORD_TOO_WEAK on `field`.
 */
export async function assertStrongPassword(
  password: string,
  field: string,
  userInputs: (string | null | undefined)[] = [],
): Promise<void> {
  const zxcvbn = await loadEstimator();
  const known = userInputs.filter((value): value is string => !!value);
  if (zxcvbn.check(password, known).guessesLog10 < minimumGuessesLog10) {
    throw new AppError('PASSWORD_TOO_WEAK', { fields: { [field]: 'PASSWORD_TOO_WEAK' } });
  }
}
