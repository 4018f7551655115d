import type { ChangeRequest, Feature } from '@vexil/core';
import { controlBody } from './features';
import type { Case, WalkContext } from './versions-invariant.cases';

/*
 * Representative calls of the change-request writes for the versions invariant
 * (versions-invariant.test.ts) and the protection walk (protection-invariant.test.ts): drafting and
 * editing add no version; applying a request that turns the checkout feature's control over adds
 * exactly one to that control. The environment (development unless told) lets authors approve their
 * own requests, so the admin walking the routes can apply theirs; `required` keeps it protected.
 */
export function changeRequestCases(
  ctx: WalkContext,
  where: { environmentKey: string; required: boolean } = { environmentKey: 'development', required: false },
): Record<string, Case[]> {
  const { environmentKey } = where;
  const admin = () => ctx.team.admin.call;
  const requests = '/api/v1/projects/web/change-requests';
  let current: ChangeRequest | undefined;

  async function post<T>(url: string, body?: unknown): Promise<T> {
    const res = await admin()('POST', url, body);
    if (res.statusCode >= 300) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json<T>();
  }

  async function change() {
    const feature = (await admin()('GET', '/api/v1/projects/web/features/checkout')).json<Feature>();
    const control = feature.controls[environmentKey]!;
    return { kind: 'control', ...controlBody(control, { enabled: !control.enabled }) };
  }

  /** A draft of the environment holding one change, kept as `current`. */
  async function draft(): Promise<ChangeRequest> {
    current = await post<ChangeRequest>(requests, { environmentKey, title: 'Walk' });
    current = await post<ChangeRequest>(`${requests}/${current.id}/changes`, await change());
    return current;
  }

  const one = (rest: string) => () => ({ url: `${requests}/${current!.id}${rest}` });

  const selfApproval = {
    required: where.required,
    minApprovals: 1,
    allowSelfApproval: true,
    resetApprovalsOnChange: true,
    autoApply: false,
  };
  /** A submitted draft of the environment, which its author (the admin) may approve. */
  async function submitted() {
    await admin()(
      'PUT',
      `/api/v1/projects/web/environments/${environmentKey}/approval-settings`,
      selfApproval,
    );
    await draft();
    await post(`${requests}/${current!.id}/submit`);
  }

  return {
    'POST /api/v1/projects/:projectKey/change-requests': [
      { ok: true, call: () => ({ url: requests, body: { environmentKey, title: 'Walk' } }) },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/changes': [
      {
        ok: true,
        prepare: async () =>
          (current = await post<ChangeRequest>(requests, { environmentKey, title: 'Walk' })),
        call: async () => ({ url: `${requests}/${current!.id}/changes`, body: await change() }),
      },
    ],
    'DELETE /api/v1/projects/:projectKey/change-requests/:id/changes/:changeId': [
      {
        ok: true,
        prepare: draft,
        call: () => ({ url: `${requests}/${current!.id}/changes/${current!.changes[0]!.id}` }),
      },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/submit': [
      { ok: true, prepare: draft, call: one('/submit') },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/comments': [
      { ok: true, prepare: draft, call: () => ({ ...one('/comments')(), body: { text: 'Looks right' } }) },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/cancel': [
      { ok: true, prepare: draft, call: one('/cancel') },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/preview': [
      { ok: true, prepare: draft, call: () => ({ ...one('/preview')(), body: { user: { id: 'u1' } } }) },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/reviews': [
      {
        ok: true,
        prepare: submitted,
        call: () => ({ ...one('/reviews')(), body: { decision: 'approve' } }),
      },
    ],
    'POST /api/v1/projects/:projectKey/change-requests/:id/apply': [
      {
        ok: true,
        prepare: async () => {
          await submitted();
          await post(`${requests}/${current!.id}/reviews`, { decision: 'approve' });
        },
        call: one('/apply'),
      },
    ],
    'PUT /api/v1/projects/:projectKey/environments/:environmentKey/approval-settings': [
      {
        ok: true,
        call: () => ({
          url: `/api/v1/projects/web/environments/${environmentKey}/approval-settings`,
          body: selfApproval,
        }),
      },
    ],
  };
}
