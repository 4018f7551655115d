import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { checkCron, instantOf, nextOccurrence, occurrencesBetween } from './occurrences';

const berlin = 'Europe/Berlin';
const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('recurring schedules in a time zone', () => {
  it('runs weekdays at 08:00 Berlin time, in winter and in summer', () => {
    const week = occurrencesBetween(
      '0 8 * * 1-5',
      berlin,
      new Date('2026-12-04T12:00:00Z'), // a Friday
      new Date('2026-12-12T00:00:00Z'),
      10,
    );
    expect(iso(week)).toEqual([
      '2026-12-07T07:00:00.000Z',
      '2026-12-08T07:00:00.000Z',
      '2026-12-09T07:00:00.000Z',
      '2026-12-10T07:00:00.000Z',
      '2026-12-11T07:00:00.000Z',
    ]);
    expect(nextOccurrence('0 8 * * 1-5', berlin, new Date('2027-07-02T12:00:00Z'))?.toISOString()).toBe(
      '2027-07-05T06:00:00.000Z',
    );
  });

  it('runs a time in the spring-forward gap once, when the clock jumps', () => {
    // 2027-03-28: Berlin goes from 02:00 CET to 03:00 CEST (01:00 UTC); 02:30 never shows.
    const runs = occurrencesBetween(
      '30 2 * * *',
      berlin,
      new Date('2027-03-27T00:00:00Z'),
      new Date('2027-03-30T00:00:00Z'),
      10,
    );
    expect(iso(runs)).toEqual([
      '2027-03-27T01:30:00.000Z',
      '2027-03-28T01:00:00.000Z',
      '2027-03-29T00:30:00.000Z',
    ]);
  });

  it('runs every reading of a gap as one occurrence at its end', () => {
    const runs = occurrencesBetween(
      '*/20 2-3 * * *',
      berlin,
      new Date('2027-03-28T00:30:00Z'),
      new Date('2027-03-28T02:30:00Z'),
      10,
    );
    // 02:00, 02:20 and 02:40 fall in the gap: once at 03:00 CEST, then 03:20 and 03:40.
    expect(iso(runs)).toEqual([
      '2027-03-28T01:00:00.000Z',
      '2027-03-28T01:20:00.000Z',
      '2027-03-28T01:40:00.000Z',
    ]);
  });

  it('runs a repeated hour once, at its first', () => {
    // 2027-10-31: Berlin goes back from 03:00 CEST to 02:00 CET (01:00 UTC); 02:30 shows twice.
    const runs = occurrencesBetween(
      '30 2 * * *',
      berlin,
      new Date('2027-10-30T00:00:00Z'),
      new Date('2027-11-01T12:00:00Z'),
      10,
    );
    expect(iso(runs)).toEqual([
      '2027-10-30T00:30:00.000Z',
      '2027-10-31T00:30:00.000Z',
      '2027-11-01T01:30:00.000Z',
    ]);
    // Hourly: each reading once, so the repeated hour's second pass adds nothing.
    const hourly = occurrencesBetween(
      '30 * * * *',
      berlin,
      new Date('2027-10-30T23:00:00Z'),
      new Date('2027-10-31T03:00:00Z'),
      10,
    );
    expect(iso(hourly)).toEqual([
      '2027-10-30T23:30:00.000Z', // 01:30 CEST
      '2027-10-31T00:30:00.000Z', // 02:30 CEST (first pass)
      '2027-10-31T02:30:00.000Z', // 03:30 CET
    ]);
  });

  it('places readings in zones without daylight saving and far from UTC', () => {
    expect(nextOccurrence('0 9 * * *', 'Asia/Kolkata', new Date('2026-12-07T00:00:00Z'))?.toISOString()).toBe(
      '2026-12-07T03:30:00.000Z',
    );
    expect(
      nextOccurrence('0 0 1 1 *', 'Pacific/Kiritimati', new Date('2026-06-01T00:00:00Z'))?.toISOString(),
    ).toBe('2026-12-31T10:00:00.000Z');
  });

  it('finds the instant of a reading, first of two, or the end of a gap', () => {
    const zone = IANAZone.create(berlin);
    expect(new Date(instantOf(zone, Date.parse('2027-01-10T12:00:00Z'))).toISOString()).toBe(
      '2027-01-10T11:00:00.000Z',
    );
    expect(new Date(instantOf(zone, Date.parse('2027-03-28T02:59:00Z'))).toISOString()).toBe(
      '2027-03-28T01:00:00.000Z',
    );
    expect(new Date(instantOf(zone, Date.parse('2027-10-31T02:00:00Z'))).toISOString()).toBe(
      '2027-10-31T00:00:00.000Z',
    );
  });

  it('refuses a cron that can never match, or has a field out of range, naming the field', () => {
    expect(() => checkCron('0 0 31 2 *')).toThrow(/day of month/);
    expect(() => checkCron('61 * * * *')).toThrow(/expected range 0-59/);
    expect(() => checkCron('0 8 * * 1-5')).not.toThrow();
  });

  it('refuses an unknown time zone', () => {
    expect(() => nextOccurrence('0 8 * * *', 'Mars/Olympus', new Date())).toThrow(/IANA time zone/);
  });
});
