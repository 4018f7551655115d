import type { RampAlert } from '@vexil/core';
import { SCHEDULES_API } from './schedules-test-server';
import { jsonResponse, type stubApi } from './test-utils';

/*
 * Stands in for a ramp's alert URL routes (docs/adr/0026-guarded-rollouts.md) in the dashboard's
 * tests, beside schedules-test-server.tsx: GET (404 while the ramp has none), POST (a new URL each
 * time, shown in that answer only) and DELETE, over a state the test reads and sets.
 */

type Handlers = Parameters<typeof stubApi>[0];
type Calls = ReturnType<typeof stubApi>;

/** The n-th alert URL the stand-in makes: `vxa_` and 43 characters, as the server's. */
export const alertUrlOf = (n: number) =>
  `http://localhost:3000/api/v1/alerts/vxa_${String(n).padStart(43, 'A')}`;

/** An alert URL as GET answers it (no `url`): made by the demo admin, no alert yet, rolls back. */
export function rampAlertFixture(overrides: Partial<RampAlert> = {}): RampAlert {
  return {
    action: 'rollback',
    createdBy: 'admin@example.com',
    createdDate: '2026-01-02T03:04:05.000Z',
    lastAlertDate: null,
    lastResult: null,
    ...overrides,
  };
}

/** What the stand-in holds: the ramp's alert URL (null for none) and how many URLs it has made. */
export type RampAlertState = { alert: RampAlert | null; made: number };

/** The alert routes of schedule `id`. */
export function rampAlertHandlers(id: string, state: RampAlertState): Handlers {
  const path = `${SCHEDULES_API}/${id}/alert`;
  const none = () =>
    jsonResponse(404, { title: 'Not found', detail: 'No such alert URL for this ramp', code: 'not_found' });
  return {
    [`GET ${path}`]: () => (state.alert ? jsonResponse(200, state.alert) : none()),
    [`POST ${path}`]: ({ body }) => {
      state.made += 1;
      const { action = 'rollback' } = (body ?? {}) as { action?: RampAlert['action'] };
      state.alert = rampAlertFixture({ action, createdDate: new Date().toISOString() });
      return jsonResponse(201, { ...state.alert, url: alertUrlOf(state.made) });
    },
    [`DELETE ${path}`]: () => {
      if (!state.alert) return none();
      state.alert = null;
      return jsonResponse(204);
    },
  };
}

/** The writes sent to alert routes, as method, path and body. */
export function alertWrites(calls: Calls) {
  return calls
    .filter((call) => call.method !== 'GET' && call.path.endsWith('/alert'))
    .map(({ method, path, body }) => ({ method, path, body }));
}
