import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';

dayjs.extend(advancedFormat);

/** docs/product.md §9's date format, e.g. "3rd Mar 2026, 4:05pm". */
export const DATE_FORMAT = 'Do MMM YYYY, h:mma';

/** Formats a date for people to read; an absent or unreadable date is an empty string. */
export function formatDate(date: dayjs.ConfigType): string {
  if (date === null || date === undefined || date === '') return '';
  const value = dayjs(date);
  return value.isValid() ? value.format(DATE_FORMAT) : '';
}

/** "First Last", or the e-mail address when the user has no name yet. */
export function fullName(user: {
  firstName?: string | null;
  lastName?: string | null;
  email: string;
}): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user.email;
}

/** Up to two initials for an avatar. */
export function initials(user: {
  firstName?: string | null;
  lastName?: string | null;
  email: string;
}): string {
  const letters = [user.firstName, user.lastName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || user.email.charAt(0)).toUpperCase();
}
