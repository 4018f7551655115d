import { expect } from 'vitest';
import type { ApprovalSettings, ChangeRequest, Feature, FeatureControl, VersionPage } from '@vexil/core';
import type { Caller } from './api';
import { controlBody } from './features';

/*
 * What the change-request tests share: a project "web" with the feature "checkout", approval
 * settings, drafts and the state of a control as the API reads it.
 */

export const REQUESTS = '/api/v1/projects/web/change-requests';

export const settingsUrl = (environmentKey: string) =>
  `/api/v1/projects/web/environments/${environmentKey}/approval-settings`;

/** Saves an environment's approval settings as `call` (an organisation admin). */
export async function protect(
  call: Caller,
  environmentKey: string,
  settings: Partial<ApprovalSettings> = {},
) {
  const res = await call('PUT', settingsUrl(environmentKey), {
    required: true,
    minApprovals: 1,
    allowSelfApproval: false,
    resetApprovalsOnChange: true,
    autoApply: false,
    ...settings,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** The checkout feature's control in an environment. */
export async function controlOf(call: Caller, environmentKey: string): Promise<FeatureControl> {
  const res = await call('GET', '/api/v1/projects/web/features/checkout');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Feature>().controls[environmentKey]!;
}

/** The control's versions, newest first. */
export async function versionsOf(call: Caller, environmentKey: string): Promise<VersionPage> {
  const res = await call(
    'GET',
    `/api/v1/projects/web/features/checkout/versions?environmentKey=${environmentKey}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<VersionPage>();
}

/** One call on a request that must succeed, answering the request as it then stands. */
export async function ok(call: Caller, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const res = await call(method, url, body);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<ChangeRequest>();
}

/** A draft for `environmentKey` holding one change of the checkout control. */
export async function draftWith(
  call: Caller,
  environmentKey: string,
  changes: Parameters<typeof controlBody>[1],
  title = 'Launch checkout',
): Promise<ChangeRequest> {
  const draft = await ok(call, 'POST', REQUESTS, {
    environmentKey,
    title,
    description: 'For the spring sale',
  });
  const control = await controlOf(call, environmentKey);
  return ok(call, 'POST', `${REQUESTS}/${draft.id}/changes`, {
    kind: 'control',
    ...controlBody(control, changes),
    lastModifiedDate: control.lastModifiedDate,
  });
}
