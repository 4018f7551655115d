import type { LightMyRequestResponse } from 'fastify';
import { AUTHORITIES } from '@vexil/core';
import { subscriptions, type PlanLimits } from '../src/db/schema/index';
import { bearer, type Harness, type TestApp, type TestUser } from './helpers';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A signed-in caller: `call('POST', '/api/v1/projects', body)`. */
export type Caller = (method: Method, url: string, body?: unknown) => Promise<LightMyRequestResponse>;

export function callerFor(app: TestApp, token: string): Caller {
  return (method, url, body) =>
    app.inject({
      method,
      url,
      headers: bearer(token),
      ...(body === undefined ? {} : { payload: body as object }),
    });
}

/** The four authorities of docs/product.md §6 that matter for administration, signed in to one organisation. */
export type Team = {
  admin: TestUser & { call: Caller };
  productionEditor: TestUser & { call: Caller };
  editor: TestUser & { call: Caller };
  readOnly: TestUser & { call: Caller };
  /** An admin of another organisation. */
  outsider: TestUser & { call: Caller };
};

export async function createTeam(h: Harness): Promise<Team> {
  const admin = await h.createOrganisation();
  const signIn = async (user: TestUser) => ({ ...user, call: callerFor(h.app, await h.login(user)) });
  const member = (authority: string) => h.createUser(admin.organisationId, admin.domain, { authority });
  return {
    admin: await signIn(admin),
    productionEditor: await signIn(await member(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR)),
    editor: await signIn(await member(AUTHORITIES.ROLE_ORGANISATION_EDITOR)),
    readOnly: await signIn(await member(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER)),
    outsider: await signIn(await h.createOrganisation()),
  };
}

/** Gives the organisation a subscription with these plan limits (they apply while the billing flag is on). */
export async function subscribe(h: Harness, organisationId: string, limits: PlanLimits) {
  await h.database.db.insert(subscriptions).values({ organisationId, status: 'active', limits });
}

/** The newest audit items of the caller's organisation. */
export async function auditTrail(call: Caller): Promise<{ title: string; description: string }[]> {
  const res = await call('GET', '/api/v1/audit-items');
  if (res.statusCode !== 200) throw new Error(`audit-items: ${res.statusCode} ${res.body}`);
  return res.json<{ content: { title: string; description: string }[] }>().content;
}
