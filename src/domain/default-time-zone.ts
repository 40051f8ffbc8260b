/** SPEC §6: the default time zone, used until the server's configured one is known. */
export const DEFAULT_TIME_ZONE = 'Asia/Manila';
