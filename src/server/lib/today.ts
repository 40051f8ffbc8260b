// Building an Intl.DateTimeFormat costs far more than formatting with one (a loan's schedule formats a date
// per payout and repayment): one formatter per time zone, made on first use.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const hourFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  make: () => Intl.DateTimeFormat,
) {
  let format = cache.get(timeZone);
  if (!format) {
    format = make();
    cache.set(timeZone, format);
  }
  return format;
}

/** Today's calendar date (YYYY-MM-DD) in the configured time zone, e.g. for a loan's schedule start. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return formatter(
    dateFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(now);
}

/** The hour (0–23) of `now` in the configured time zone, e.g. to keep messages out of the night. */
export function hourIn(timeZone: string, now: Date = new Date()): number {
  const hour = formatter(
    hourFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }),
  ).format(now);
  return Number(hour);
}
