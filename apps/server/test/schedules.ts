import { expect } from 'vitest';
import type { Schedule, ScheduleInput } from '@vexil/core';
import type { Caller } from './api';
import type { Harness } from './helpers';
import type { testClock } from './integrations';

/*
 * What the schedule tests share: the project "web" with "checkout" (see change-requests.ts), the
 * schedules' URLs, and a clock the scheduler runs on, moved by hand.
 */

export const SCHEDULES = '/api/v1/projects/web/schedules';

/** Creates a schedule that must be accepted. */
export async function schedule(call: Caller, input: ScheduleInput): Promise<Schedule> {
  const res = await call('POST', SCHEDULES, input);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Schedule>();
}

/** Acts on a schedule; the answer. */
export function act(call: Caller, id: string, action: string, body?: unknown) {
  return call('POST', `${SCHEDULES}/${id}/${action}`, body ?? {});
}

/** One schedule as it stands, with its history. */
export async function scheduleOf(call: Caller, id: string): Promise<Schedule> {
  const res = await call('GET', `${SCHEDULES}/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Schedule>();
}

/** Moves the scheduler's clock on, and lets every job that fell due run. */
export async function elapse(h: Harness, clock: ReturnType<typeof testClock>, ms: number): Promise<void> {
  clock.advance(ms);
  h.app.services.queue.wake();
  await h.app.services.queue.settled();
}

/** The checkout control's ETag in an environment's SDK payload. */
export async function payloadEtag(h: Harness, apiKey: string): Promise<string> {
  // The payloads are rebuilt after the commit (on PostgreSQL, when the notification comes back).
  await h.app.sdk.store.settled();
  const res = await h.app.inject({
    method: 'GET',
    url: '/api/sdk/v1/features',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(res.statusCode).toBe(200);
  return res.headers.etag as string;
}
