import {
  FINAL_SCHEDULE_STATES,
  type InitialPayload,
  type Schedule,
  type ScheduleList,
  type ScheduleOccurrence,
} from '@vexil/core';
import { environmentRoute, initialPayload, jsonResponse, renderRoute, stubApi } from './test-utils';
import { EnvironmentSchedulePage } from '../app/routes/environment-schedule-page';

/*
 * Stands in for the schedules API (docs/adr/0025-scheduler.md) in the dashboard's tests: schedules of
 * the "checkout" feature of the test payload's "web" project, the list answered by filter, creation,
 * and whatever actions a test hands in.
 */

type Handlers = Parameters<typeof stubApi>[0];
type Calls = ReturnType<typeof stubApi>;

export const SCHEDULES_API = '/api/v1/projects/web/schedules';
const AUTHOR = { id: '00000000-0000-4000-8000-000000000001', name: 'Demo Admin' };
const CREATED = '2026-01-02T03:04:05.000Z';
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`;

/** A date `hours` from now (ISO 8601). */
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

/** Schedule `n`: turns "checkout" on in Development in 3 hours; ready. */
export function scheduleFixture(n: number, overrides: Partial<Schedule> = {}): Schedule {
  const at = overrides.nextDueDate ?? hoursFromNow(3);
  return {
    id: uuid(n),
    kind: 'once',
    state: 'ready',
    projectKey: 'web',
    featureKey: 'checkout',
    featureName: 'New checkout',
    environmentKey: 'dev',
    environmentName: 'Development',
    spec: {
      kind: 'once',
      featureKey: 'checkout',
      environmentKey: 'dev',
      at,
      change: { enabled: true },
      comment: '',
    },
    currentStep: null,
    awaitingApproval: false,
    exposures: null,
    arms: null,
    nextDueDate: at,
    reason: null,
    failures: 0,
    baseVersion: 3,
    author: AUTHOR,
    createdDate: CREATED,
    updatedDate: CREATED,
    ...overrides,
  };
}

/**
 * Ramp `n` of On in "checkout"'s default rule (rule index 1 of the ramp controls below) in
 * Development: 10 %, then 50 % (waits for approval), then 100 % (waits for 1,000 exposures), each
 * held an hour; running at its first step.
 */
export function rampFixture(n: number, overrides: Partial<Schedule> = {}): Schedule {
  return scheduleFixture(n, {
    kind: 'ramp',
    state: 'running',
    spec: {
      kind: 'ramp',
      featureKey: 'checkout',
      environmentKey: 'dev',
      ruleIndex: 1,
      variantKey: 'on',
      steps: [
        { coverage: 10, holdSeconds: 3600 },
        { coverage: 50, holdSeconds: 3600, approval: true },
        { coverage: 100, holdSeconds: 3600, minExposures: 1000 },
      ],
      comment: '',
    },
    currentStep: 0,
    nextDueDate: hoursFromNow(1),
    ...overrides,
  });
}

/** Recurring schedule `n`: turns "checkout" off on weekdays at 18:00 in Europe/Berlin. */
export function recurringFixture(n: number, overrides: Partial<Schedule> = {}): Schedule {
  return scheduleFixture(n, {
    kind: 'recurring',
    state: 'running',
    spec: {
      kind: 'recurring',
      featureKey: 'checkout',
      environmentKey: 'dev',
      cron: '0 18 * * 1-5',
      timeZone: 'Europe/Berlin',
      change: { enabled: false },
      catchUp: 'once',
      comment: '',
    },
    ...overrides,
  });
}

/** An occurrence of `schedule` at `date`. */
export function occurrenceOf(schedule: Schedule, date: string, description = 'Turn on'): ScheduleOccurrence {
  return {
    scheduleId: schedule.id,
    kind: schedule.kind,
    featureKey: schedule.featureKey,
    featureName: schedule.featureName,
    environmentKey: schedule.environmentKey,
    date,
    description,
  };
}

export type ScheduleState = { schedules: Schedule[]; occurrences: ScheduleOccurrence[] };

/**
 * The list (filtered by feature, environment and, unless `finished=true`, unfinished), and each
 * schedule by id; a POST creates a ready schedule from its body.
 */
export function scheduleHandlers(state: ScheduleState): Handlers {
  return {
    [`GET ${SCHEDULES_API}`]: ({ url }) => {
      const params = url.searchParams;
      const keep = (item: { featureKey: string; environmentKey: string }) =>
        (!params.get('featureKey') || item.featureKey === params.get('featureKey')) &&
        (!params.get('environmentKey') || item.environmentKey === params.get('environmentKey'));
      const list: ScheduleList = {
        from: params.get('from') ?? new Date().toISOString(),
        to: params.get('to') ?? hoursFromNow(14 * 24),
        occurrences: state.occurrences.filter(keep),
        schedules: state.schedules
          .filter(keep)
          .filter(
            (schedule) =>
              params.get('finished') === 'true' || !FINAL_SCHEDULE_STATES.includes(schedule.state),
          ),
      };
      return jsonResponse(200, list);
    },
    [`POST ${SCHEDULES_API}`]: ({ body }) => {
      const input = body as { kind: Schedule['kind']; at?: string; startAt?: string };
      const created = scheduleFixture(900 + state.schedules.length, {
        kind: input.kind,
        spec: body as Record<string, unknown>,
        currentStep: null,
        nextDueDate: input.at ?? input.startAt ?? new Date().toISOString(),
      });
      state.schedules.push(created);
      return jsonResponse(201, created);
    },
    ...Object.fromEntries(
      state.schedules.map((schedule) => [
        `GET ${SCHEDULES_API}/${schedule.id}`,
        () => jsonResponse(200, { ...schedule, history: [] }),
      ]),
    ),
  };
}

/** The calls made to an action of a schedule (POST …/schedules/{id}/{action}), as paths and bodies. */
export function actionCalls(calls: Calls) {
  return calls
    .filter((call) => call.method === 'POST' && call.path.startsWith(`${SCHEDULES_API}/`))
    .map(({ path, body }) => ({ path, body }));
}

/** The list requests sent, as their query parameters. */
export function listQueries(calls: Calls) {
  return calls
    .filter((call) => call.method === 'GET' && call.path.startsWith(`${SCHEDULES_API}?`))
    .map((call) => Object.fromEntries(new URL(call.path, 'http://localhost').searchParams));
}

export type ServeSchedulesOptions = {
  payload?: InitialPayload;
  schedules?: Schedule[];
  occurrences?: ScheduleOccurrence[];
  handlers?: Handlers;
};

/** Serves the initial payload and the schedules API. */
export function serveSchedules(options: ServeSchedulesOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state: ScheduleState = {
    schedules: options.schedules ?? [],
    occurrences: options.occurrences ?? [],
  };
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/change-requests/waiting': () => jsonResponse(200, { count: 0 }),
    ...scheduleHandlers(state),
    ...options.handlers,
  });
  return { calls, state, payload };
}

/** The Schedule page at `path`, as the app's routes mount it. */
export function renderSchedulePage(path: string, session?: InitialPayload) {
  return renderRoute(
    environmentRoute([{ path: 'schedule', element: <EnvironmentSchedulePage /> }]),
    path,
    session ? { session } : {},
  );
}
