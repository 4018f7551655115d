import dayjs from 'dayjs';
import { z } from 'zod';
import type { RampStep, Schedule, ScheduleKind, ScheduleState } from '@vexil/core';
import { formatDate } from './format';

/*
 * Schedules in words (docs/adr/0025-scheduler.md), for the Targeting tab's panel, the feature page's
 * badge and the Schedule page alike; and the local times their forms read and write.
 */

/** How each state reads. */
export const SCHEDULE_STATE_LABELS: Readonly<Record<ScheduleState, string>> = {
  ready: 'Ready',
  running: 'Running',
  paused: 'Paused',
  completed: 'Completed',
  'rolled-back': 'Rolled back',
  cancelled: 'Cancelled',
  suspended: 'Suspended',
};

/** Theme colours, so that the badges follow light and dark mode. */
export const SCHEDULE_STATE_COLORS: Readonly<Record<ScheduleState, string>> = {
  ready: 'blue',
  running: 'teal',
  paused: 'yellow',
  completed: 'green',
  'rolled-back': 'gray',
  cancelled: 'gray',
  suspended: 'orange',
};

/** How each kind reads. */
export const SCHEDULE_KIND_LABELS: Readonly<Record<ScheduleKind, string>> = {
  once: 'Once',
  recurring: 'Recurring',
  ramp: 'Ramp',
};

/*
 * A schedule's `spec` is the input as the server took it. It is read leniently (unknown fields are
 * ignored), so that a newer server's extra fields never hide a schedule; what does not fit reads null.
 */

const patchSpec = z.object({
  enabled: z.boolean().optional(),
  rules: z.array(z.unknown()).optional(),
  offVariantKey: z.string().optional(),
  changeRequestId: z.string().optional(),
});
/** A scheduled change as the spec holds it: a control patch, or an approved change request. */
export type ChangeSpec = z.infer<typeof patchSpec>;

const onceSpec = z.object({ at: z.string(), change: patchSpec, comment: z.string().optional() });
const recurringSpec = z.object({
  cron: z.string(),
  timeZone: z.string(),
  change: patchSpec,
  until: z.string().optional(),
  catchUp: z.enum(['once', 'skip']).optional(),
});
const rampSpec = z.object({
  ruleIndex: z.number(),
  variantKey: z.string(),
  steps: z.array(
    z.object({
      coverage: z.number(),
      holdSeconds: z.number(),
      minExposures: z.number().optional(),
      approval: z.boolean().optional(),
    }),
  ),
  startAt: z.string().optional(),
  cutoffAt: z.string().optional(),
});

export type OnceSpec = z.infer<typeof onceSpec>;
export type RecurringSpec = z.infer<typeof recurringSpec>;
export type RampSpec = z.infer<typeof rampSpec> & { steps: RampStep[] };

/** What a one-off schedule does and when; null for another kind or a spec that does not read. */
export function onceSpecOf(schedule: Pick<Schedule, 'kind' | 'spec'>): OnceSpec | null {
  if (schedule.kind !== 'once') return null;
  return onceSpec.safeParse(schedule.spec).data ?? null;
}

/** What a recurring schedule does and when; null for another kind or a spec that does not read. */
export function recurringSpecOf(schedule: Pick<Schedule, 'kind' | 'spec'>): RecurringSpec | null {
  if (schedule.kind !== 'recurring') return null;
  return recurringSpec.safeParse(schedule.spec).data ?? null;
}

/** A ramp's rule, variant and steps; null for another kind or a spec that does not read. */
export function rampSpecOf(schedule: Pick<Schedule, 'kind' | 'spec'>): RampSpec | null {
  if (schedule.kind !== 'ramp') return null;
  return rampSpec.safeParse(schedule.spec).data ?? null;
}

/** The variant's share of the rule a ramp applied last; null before its first step. */
export function rampCoverage(schedule: Pick<Schedule, 'kind' | 'spec' | 'currentStep'>): number | null {
  const spec = rampSpecOf(schedule);
  if (!spec || schedule.currentStep === null) return null;
  return spec.steps[schedule.currentStep]?.coverage ?? null;
}

/** How a variant reads where the feature's variants are not at hand: its key, quoted. */
const quotedKey = (key: string) => `“${key}”`;

/** "Turn on", "Turn off", "Change the rules", "Apply a change request"… */
export function describeChange(change: ChangeSpec, variantName: (key: string) => string = quotedKey) {
  if (change.changeRequestId !== undefined) return 'Apply an approved change request';
  const parts: string[] = [];
  if (change.enabled === true) parts.push('turn on');
  if (change.enabled === false) parts.push('turn off');
  if (change.rules !== undefined) parts.push('change the rules');
  if (change.offVariantKey !== undefined) parts.push(`serve ${variantName(change.offVariantKey)} when off`);
  const text = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}` : (parts[0] ?? '');
  return text ? text[0]!.toUpperCase() + text.slice(1) : 'Change the targeting';
}

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * Common cron expressions in words ("weekdays at 08:00", "every day at 18:30", "every Monday at
 * 09:00", "weekends at 10:00"); null for any other (the expression itself is shown then).
 */
export function cronText(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  if (!/^\d{1,2}$/.test(minute) || !/^\d{1,2}$/.test(hour) || dayOfMonth !== '*' || month !== '*')
    return null;
  const m = Number(minute);
  const h = Number(hour);
  if (m > 59 || h > 23) return null;
  const time = `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  if (dayOfWeek === '*') return `every day at ${time}`;
  if (dayOfWeek === '1-5' || dayOfWeek === 'MON-FRI') return `weekdays at ${time}`;
  if (['0,6', '6,0', '6,7', '6-7', 'SAT,SUN'].includes(dayOfWeek)) return `weekends at ${time}`;
  if (/^[0-7]$/.test(dayOfWeek)) return `every ${DAY_NAMES[Number(dayOfWeek)]!} at ${time}`;
  return null;
}

/** A cron expression for every day at a `HH:MM` time. */
export function dailyCron(time: string): string {
  const [hour = '0', minute = '0'] = time.split(':');
  return `${Number(minute)} ${Number(hour)} * * *`;
}

/** The cron presets of the Schedule change form. */
export const CRON_PRESETS: readonly { label: string; cron: string }[] = [
  { label: 'Weekdays at 08:00', cron: '0 8 * * 1-5' },
  { label: 'Weekdays at 18:00', cron: '0 18 * * 1-5' },
];

/** The units a ramp step's hold is entered in, with their length in seconds. */
export const HOLD_UNITS = [
  { value: 'seconds', label: 'Seconds', seconds: 1 },
  { value: 'minutes', label: 'Minutes', seconds: 60 },
  { value: 'hours', label: 'Hours', seconds: 3600 },
  { value: 'days', label: 'Days', seconds: 86_400 },
] as const;
export type HoldUnit = (typeof HOLD_UNITS)[number]['value'];

/** A hold in the largest unit that divides it: "1 hour", "90 minutes", "2 days". */
export function holdText(seconds: number): string {
  const unit =
    [...HOLD_UNITS].reverse().find((candidate) => seconds % candidate.seconds === 0) ?? HOLD_UNITS[0];
  const count = seconds / unit.seconds;
  const word = unit.value.slice(0, -1);
  return `${count.toLocaleString('en')} ${count === 1 ? word : `${word}s`}`;
}

/**
 * What a schedule does, in a line: "Turn on at 3rd Mar 2026, 4:05pm", "Turn off weekdays at 18:00
 * (Europe/Berlin)", "Ramp On to 100 % in 3 steps". `variantName` names the feature's variants (their
 * keys, quoted, when not given).
 */
export function scheduleSummary(
  schedule: Pick<Schedule, 'kind' | 'spec'>,
  variantName: (key: string) => string = quotedKey,
): string {
  const once = onceSpecOf(schedule);
  if (once) return `${describeChange(once.change, variantName)} at ${formatDate(once.at)}`;
  const recurring = recurringSpecOf(schedule);
  if (recurring) {
    const when = cronText(recurring.cron) ?? `on “${recurring.cron}”`;
    return `${describeChange(recurring.change, variantName)} ${when} (${recurring.timeZone})`;
  }
  const ramp = rampSpecOf(schedule);
  if (ramp) {
    const last = ramp.steps.at(-1)?.coverage ?? 0;
    const steps = ramp.steps.length === 1 ? '1 step' : `${ramp.steps.length} steps`;
    return `Ramp ${variantName(ramp.variantKey)} to ${last} % in ${steps}`;
  }
  return SCHEDULE_KIND_LABELS[schedule.kind];
}

/** A due time in a few characters: "Tue 09:00"; another week's with its date: "Tue 17 Mar 09:00". */
export function shortDueText(date: string, now = Date.now()): string {
  const due = dayjs(date);
  return due.diff(now, 'day', true) < 6 ? due.format('ddd HH:mm') : due.format('ddd D MMM HH:mm');
}

/** The time zone the browser runs in (Europe/Berlin…), which the forms' local times are in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Every IANA time zone this browser knows, the browser's own and UTC among them. */
export function timeZones(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, browserTimeZone(), 'UTC'])].sort();
}

/** A date as a `datetime-local` field shows it, in the browser's time zone ('' for none). */
export function toLocalInput(date: Date | string | null | undefined): string {
  if (!date) return '';
  const value = dayjs(date);
  return value.isValid() ? value.format('YYYY-MM-DDTHH:mm') : '';
}

/**
 * What a `datetime-local` field holds (the browser's local time) as ISO 8601 with the browser's
 * offset, `2026-03-03T16:05:00+01:00`; undefined when empty or unreadable.
 */
export function fromLocalInput(value: string): string | undefined {
  if (value.trim() === '') return undefined;
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DDTHH:mm:ssZ') : undefined;
}
