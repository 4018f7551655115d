import type { Schedule } from '@vexil/core';
import type { Case, WalkContext } from './versions-invariant.cases';

/*
 * Representative calls of the schedules' writes for the versions invariant (versions-invariant.test.ts):
 * making, changing and pausing a schedule add no version; advancing a one-off change applies it now,
 * exactly one version of the checkout feature's development control.
 */
export function scheduleCases(ctx: WalkContext): Record<string, Case[]> {
  const admin = () => ctx.team.admin.call;
  const schedules = '/api/v1/projects/web/schedules';
  let current: Schedule | undefined;
  const body = () => ({
    kind: 'once',
    featureKey: 'checkout',
    environmentKey: 'development',
    at: new Date(Date.now() + 60 * 60_000).toISOString(),
    change: { offVariantKey: 'on' },
  });
  async function made() {
    const res = await admin()('POST', schedules, body());
    if (res.statusCode !== 201) throw new Error(`schedule: ${res.statusCode} ${res.body}`);
    current = res.json<Schedule>();
  }
  return {
    'POST /api/v1/projects/:projectKey/schedules': [
      { ok: true, call: () => ({ url: schedules, body: body() }) },
    ],
    'PUT /api/v1/projects/:projectKey/schedules/:id': [
      { ok: true, prepare: made, call: () => ({ url: `${schedules}/${current!.id}`, body: body() }) },
    ],
    'POST /api/v1/projects/:projectKey/schedules/:id/:action': [
      { ok: true, prepare: made, call: () => ({ url: `${schedules}/${current!.id}/pause`, body: {} }) },
      { ok: true, prepare: made, call: () => ({ url: `${schedules}/${current!.id}/advance`, body: {} }) },
    ],
  };
}
