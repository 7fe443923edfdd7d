/**
 * Dates and times as the field tables take them: a date of birth written `YYYY-MM-DD` or `DD/MM/YYYY`
 * (a real calendar day), an age on a given day, and a date and time with its offset (RFC 3339), kept as
 * UTC ISO text. Used by `validate.ts` to prepare values and by its custom keywords.
 */

// Dates of birth

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** The two spellings of a date (exported for the OpenAPI documents, which state them as patterns). */
export const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const AU_DATE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

const isLeapYear = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const DAYS_IN_MONTH: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** `YYYY-MM-DD` or `DD/MM/YYYY`, and a day that exists in the calendar (no 2001-02-30, no 31/04/1990). */
export function parseCalendarDate(value: string): CalendarDate | undefined {
  const iso = ISO_DATE.exec(value);
  const au = AU_DATE.exec(value);
  const [year, month, day] = (iso ? iso.slice(1) : au ? au.slice(1).reverse() : []).map(Number);
  if (year === undefined || month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1];
  return day <= daysInMonth ? { year, month, day } : undefined;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
export const toIsoDate = ({ year, month, day }: CalendarDate): string =>
  `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;

/** Whole years between a birth date and a day; a 29 February birthday is reached on 1 March in common years. */
export function ageOn(birth: CalendarDate, on: Date): number {
  const [year, month, day] = [on.getUTCFullYear(), on.getUTCMonth() + 1, on.getUTCDate()];
  const hadBirthdayThisYear = month > birth.month || (month === birth.month && day >= birth.day);
  return year - birth.year - (hadBirthdayThisYear ? 0 : 1);
}

// Times with their offset (consentCapturedAt)

/**
 * A date and time with its offset (RFC 3339), or undefined when it is not a real one. A leap second counts
 * as the last millisecond before it.
 */
export function parseTime(value: string): Date | undefined {
  const parts = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-]\d{2})(?::?(\d{2}))?)$/.exec(
    value,
  );
  if (!parts || parseCalendarDate(parts[1]) === undefined) return undefined;
  const [, date, hours, minutes, seconds, fraction = '', utc, offsetHours, offsetMinutes = '00'] = parts;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60 || Number(offsetMinutes) > 59)
    return undefined;
  const zone = utc ? 'Z' : `${offsetHours}:${offsetMinutes}`;
  const time = Date.parse(
    `${date}T${hours}:${minutes}:${seconds === '60' ? '59.999' : `${seconds}${fraction.slice(0, 4)}`}${zone}`,
  );
  return Number.isNaN(time) ? undefined : new Date(time);
}
