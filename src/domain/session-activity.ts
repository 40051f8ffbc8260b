/**
 * A request the web app makes on its own (a poll, a list re-read after a pushed change) carries this header
 * and does not count as activity for the session's idle limit (docs/decisions/073). It can only shorten its
 * own session, so the server trusts it.
 */
export const UNATTENDED_HEADER = 'x-hiram-unattended';

/**
 * How long after the reader's last key, tap, click, scroll or return to the page a request still counts as
 * theirs: a click's request, and those its answer sets off, leave within seconds.
 */
export const ATTENDED_FOR_MS = 60_000;
