import { describe, expect, it } from 'vitest';
import { formatDate } from './format';

describe('formatDate', () => {
  it('uses "Do MMM YYYY, h:mma"', () => {
    expect(formatDate(new Date(2026, 2, 3, 16, 5))).toBe('3rd Mar 2026, 4:05pm');
  });

  it('writes ordinals and the morning', () => {
    expect(formatDate(new Date(2025, 11, 1, 0, 0))).toBe('1st Dec 2025, 12:00am');
    expect(formatDate(new Date(2025, 0, 22, 9, 30))).toBe('22nd Jan 2025, 9:30am');
    expect(formatDate(new Date(2025, 6, 11, 12, 0))).toBe('11th Jul 2025, 12:00pm');
  });

  it('reads ISO strings and timestamps', () => {
    const date = new Date(2026, 2, 3, 16, 5);
    expect(formatDate(date.toISOString())).toBe('3rd Mar 2026, 4:05pm');
    expect(formatDate(date.getTime())).toBe('3rd Mar 2026, 4:05pm');
  });

  it('is empty for an absent or unreadable date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
