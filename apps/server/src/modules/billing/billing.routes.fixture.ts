/** What the billing route tests share: a harness, and before each test a fresh team. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Subscription } from '@vexil/core';
import { createTeam, type Caller, type Team } from '../../../test/api';
import { createHarness, type Harness } from '../../../test/helpers';

export let h: Harness;
export let team: Team;

export async function subscription(call: Caller): Promise<Subscription | null> {
  return (await call('GET', '/api/v1/initial')).json<{ subscription: Subscription | null }>().subscription;
}

/** Opens the harness for the calling test file and starts each of its tests from a fresh team. */
export function setUpBillingRoutes(): void {
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    // Payload rebuilds the last test's changes started finish before their tables are emptied.
    await h.app.sdk.store.settled();
    await h.database.reset();
    team = await createTeam(h);
  });
}
