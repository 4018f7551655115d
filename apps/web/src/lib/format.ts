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
