import { MAX_OCCURRENCES_PER_SCHEDULE, isRequestChange, type ScheduleOccurrence } from '@vexil/core';
import { occurrencesBetween } from './occurrences';
import { patchLabel, stepLabel } from './schedule-writes';
import type { ScheduleInScope } from './schedules.repository';

/**
 * The occurrences of the schedules that fall in [from, to], soonest first (the Schedule page's
 * calendar): a one-off change at its time, every occurrence of a recurring schedule until its end,
 * and a ramp's coming steps, each a hold after the one before (the earliest it can come: exposures and
 * approvals may hold it longer). Paused, suspended and finished schedules have none.
 */
export function listOccurrences(
  found: readonly ScheduleInScope[],
  from: Date,
  to: Date,
  at: Date,
): ScheduleOccurrence[] {
  const occurrences: ScheduleOccurrence[] = [];
  for (const one of found) {
    const { schedule, feature, environment } = one;
    if (schedule.state !== 'ready' && schedule.state !== 'running') continue;
    const add = (date: Date, description: string) => {
      if (date >= from && date <= to)
        occurrences.push({
          scheduleId: schedule.id,
          kind: schedule.kind,
          featureKey: feature.key,
          featureName: feature.name,
          environmentKey: environment.key,
          date: date.toISOString(),
          description,
        });
    };
    const spec = schedule.spec;
    const due = schedule.nextDueAt;
    if (spec.kind === 'once') {
      if (due) add(due, isRequestChange(spec.change) ? 'Apply the change request' : patchLabel(spec.change));
    } else if (spec.kind === 'recurring') {
      if (!due) continue;
      const label = patchLabel(spec.change);
      const until = spec.until ? new Date(Math.min(to.getTime(), Date.parse(spec.until))) : to;
      add(due, label);
      for (const date of occurrencesBetween(
        spec.cron,
        spec.timeZone,
        due,
        until,
        MAX_OCCURRENCES_PER_SCHEDULE,
      ))
        add(date, label);
    } else {
      // The next step comes at the due time (or at once, when it waits for an approval), later ones a hold apart.
      let when = due ?? at;
      let index = schedule.state === 'ready' ? 0 : schedule.step + 1;
      if (schedule.state === 'running' && due) {
        const held = spec.steps[schedule.step];
        const holdEnds = schedule.stepStartedAt
          ? schedule.stepStartedAt.getTime() + (held?.holdSeconds ?? 0) * 1000
          : 0;
        when = new Date(Math.max(due.getTime(), holdEnds));
      }
      for (; index < spec.steps.length; index++) {
        add(when, stepLabel(spec, index));
        when = new Date(when.getTime() + spec.steps[index]!.holdSeconds * 1000);
      }
    }
  }
  return occurrences.sort((a, b) => a.date.localeCompare(b.date));
}
