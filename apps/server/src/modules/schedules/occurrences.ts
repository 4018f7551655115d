import { CronExpressionParser } from 'cron-parser';
import { IANAZone } from 'luxon';
import { SCHEDULE_MESSAGES } from '@vexil/core';
import { BadRequestError } from '../../errors';

/*
 * When a recurring schedule falls due (docs/adr/0025-scheduler.md). A cron expression names wall-clock
 * times in a time zone. The expression is matched against the wall clock (cron-parser, in UTC so that
 * it sees plain clock readings), and each matching reading is then placed in time by the zone's
 * offsets (luxon's IANA data):
 * - a reading that happens once is that instant;
 * - a reading the clock repeats (the hour after clocks go back) is its first instant: it runs once;
 * - a reading the clock skips (the hour clocks go forward) runs once at the first instant after the
 *   gap, the moment the clock jumps; several readings in one gap are that one instant, once.
 */

const MINUTE_MS = 60_000;
/** How many wall-clock readings are looked at for one occurrence before giving up (a cron that never matches). */
const MAX_READINGS = 2_000;

/** The zone's offset from UTC at `instant`, in milliseconds. */
function offsetAt(zone: IANAZone, instant: number): number {
  return zone.offset(instant) * MINUTE_MS;
}

/** The wall-clock reading at `instant`, as a UTC timestamp of the same reading. */
function readingAt(zone: IANAZone, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/**
 * The instant a wall-clock reading stands for in `zone`: its first, when the clock shows it twice; the
 * end of the gap (the instant the clock jumps over it), when the clock never shows it.
 */
export function instantOf(zone: IANAZone, reading: number): number {
  const offsets = new Set([
    offsetAt(zone, reading - 86_400_000),
    offsetAt(zone, reading),
    offsetAt(zone, reading + 86_400_000),
  ]);
  const instants = [...offsets]
    .map((offset) => reading - offset)
    .filter((at) => readingAt(zone, at) === reading);
  if (instants.length > 0) return Math.min(...instants);
  // In a gap: the first instant whose reading is past it. Readings are monotone across a gap, so a
  // search between the two offsets' instants finds the jump, to the millisecond.
  let low = reading - Math.max(...offsets);
  let high = reading - Math.min(...offsets);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (readingAt(zone, middle) > reading) high = middle;
    else low = middle;
  }
  return high;
}

/** A cron expression checked once: parsing it with cron-parser; a 400 naming the field it gets wrong. */
export function checkCron(expression: string): void {
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' }).next();
  } catch (error) {
    const detail = error instanceof Error ? error.message : '';
    throw new BadRequestError(`${SCHEDULE_MESSAGES.cronFields} ${detail}`.trim(), [
      { field: 'cron', message: detail || SCHEDULE_MESSAGES.cronFields },
    ]);
  }
}

/** The zone, or a 400. */
function zoneOf(timeZone: string): IANAZone {
  const zone = IANAZone.create(timeZone);
  if (!zone.isValid)
    throw new BadRequestError(SCHEDULE_MESSAGES.timeZone, [
      { field: 'timeZone', message: SCHEDULE_MESSAGES.timeZone },
    ]);
  return zone;
}

/**
 * The occurrences of `cron` in `timeZone` strictly after `after` and no later than `until`, at most
 * `limit` of them, in order.
 */
export function occurrencesBetween(
  cron: string,
  timeZone: string,
  after: Date,
  until: Date,
  limit: number,
): Date[] {
  const zone = zoneOf(timeZone);
  const found: Date[] = [];
  // Start a little before `after`'s reading: a reading in a gap just before it may stand for an
  // instant after it (the gap's end).
  const start = readingAt(zone, after.getTime()) - 3 * 60 * MINUTE_MS;
  const readings = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: new Date(start) });
  let last = after.getTime();
  for (let i = 0; i < MAX_READINGS * Math.max(1, limit) && found.length < limit; i++) {
    if (!readings.hasNext()) break;
    const reading = readings.next().getTime();
    const instant = instantOf(zone, reading);
    if (instant <= last) continue;
    if (instant > until.getTime()) break;
    found.push(new Date(instant));
    last = instant;
  }
  return found;
}

/** The first occurrence of `cron` in `timeZone` strictly after `after`; null when there is none within 5 years. */
export function nextOccurrence(cron: string, timeZone: string, after: Date): Date | null {
  const horizon = new Date(after.getTime() + 5 * 366 * 86_400_000);
  return occurrencesBetween(cron, timeZone, after, horizon, 1)[0] ?? null;
}
