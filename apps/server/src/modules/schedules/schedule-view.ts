import type { Schedule, ScheduleEvent } from '@vexil/core';
import type { ScheduleEventRecord, ScheduleInScope } from './schedules.repository';

/** A schedule as the API answers it; `history` only when asked for one schedule. */
export function toScheduleView(
  found: ScheduleInScope,
  extra: {
    exposures?: { seen: number; needed: number } | null;
    arms?: Schedule['arms'];
    awaitingApproval?: boolean;
    history?: ScheduleEventRecord[];
  } = {},
): Schedule {
  const { schedule, project, feature, environment } = found;
  return {
    id: schedule.id,
    kind: schedule.kind,
    state: schedule.state,
    projectKey: project.key,
    featureKey: feature.key,
    featureName: feature.name,
    environmentKey: environment.key,
    environmentName: environment.name,
    spec: schedule.spec as Record<string, unknown>,
    currentStep: schedule.step >= 0 && schedule.kind === 'ramp' ? schedule.step : null,
    awaitingApproval: extra.awaitingApproval ?? false,
    exposures: extra.exposures ?? null,
    arms: extra.arms ?? null,
    nextDueDate: schedule.nextDueAt?.toISOString() ?? null,
    reason: schedule.reason,
    failures: schedule.failures,
    baseVersion: schedule.baseVersion,
    author: schedule.authorId ? { id: schedule.authorId, name: schedule.authorName } : null,
    createdDate: schedule.createdAt.toISOString(),
    updatedDate: schedule.updatedAt.toISOString(),
    ...(extra.history ? { history: extra.history.map(toEventView) } : {}),
  };
}

function toEventView(event: ScheduleEventRecord): ScheduleEvent {
  return {
    kind: event.kind,
    step: event.step,
    actor: event.actorName,
    message: event.message,
    version: event.version,
    date: event.createdAt.toISOString(),
  };
}
