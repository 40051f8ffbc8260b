/**
 * The languages a user reads (SPEC §8): the screens speak all four, and the server writes everything it
 * sends a user in the one stored on their account (issue #36). English for anyone who never chose.
 */
export const userLanguages = ['en', 'fil', 'zh', 'km'] as const;
export type UserLanguage = (typeof userLanguages)[number];
export const defaultUserLanguage: UserLanguage = 'en';
