import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ENTERPRISE_PLAN_LIMITS, type Authority, type Subscription } from '@vexil/core';
import { allFlagsOn, initialPayload, jsonResponse, trialSubscription } from '../../../testing/test-utils';
import {
  featureFixture,
  renderFeatureList,
  resetOverlays,
  serveFeatures,
} from '../../../testing/feature-list-test-server';

const LIST = '/projects/web/environments/dev/features';

/** A plan of at most 3 features, with `used` of them in use. */
function atFeatures(used: number, flags = allFlagsOn, authority: Authority = 'ROLE_ORGANISATION_ADMIN') {
  const subscription: Subscription = {
    ...trialSubscription(0, false),
    limits: { ...ENTERPRISE_PLAN_LIMITS, maxFeatures: 3 },
  };
  const payload = initialPayload({ subscription, flags });
  payload.principalUser.authorities = [authority];
  return serveFeatures({
    payload,
    features: [featureFixture(1)],
    handlers: {
      'GET /api/v1/billing/limits': () =>
        jsonResponse(200, { seats: 1, projectsUsed: 1, environmentsUsed: 2, featuresUsed: used }),
    },
  });
}

/** The list's first row: the first render of a cold worker can take longer than a second. */
const listShown = () => screen.findByRole('link', { name: 'Feature 001' }, { timeout: 10_000 });

const newFeature = () => screen.getByRole('button', { name: 'New Feature' }) as HTMLButtonElement;

describe('New Feature and the plan’s feature limit', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('is disabled at the limit, saying why with a link to upgrade', async () => {
    atFeatures(3);
    renderFeatureList(LIST);
    await listShown();
    const notice = await screen.findByText(/Only 3 feature\(s\) allowed\./);
    expect(newFeature().disabled).toBe(true);
    expect(newFeature().getAttribute('aria-describedby')).toBe(notice.closest('[id]')!.id);
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('is enabled below the limit', async () => {
    const { calls } = atFeatures(2);
    renderFeatureList(LIST);
    await listShown();
    await waitFor(() => expect(calls.some((call) => call.path === '/api/v1/billing/limits')).toBe(true));
    expect(newFeature().disabled).toBe(false);
    expect(screen.queryByText(/feature\(s\) allowed/)).toBeNull();
  });

  it('ignores the plan with the billing flag off, without asking for the usage', async () => {
    const { calls } = atFeatures(3, { ...allFlagsOn, billing: false });
    renderFeatureList(LIST);
    await listShown();
    expect(newFeature().disabled).toBe(false);
    expect(calls.some((call) => call.path === '/api/v1/billing/limits')).toBe(false);
  });

  it('is disabled for other members too, telling them whom to ask instead of a billing page they may not use', async () => {
    atFeatures(3, allFlagsOn, 'ROLE_ORGANISATION_EDITOR');
    renderFeatureList(LIST);
    await listShown();
    const notice = await screen.findByText(/Only 3 feature\(s\) allowed\./);
    expect(notice.textContent).toBe(
      'Only 3 feature(s) allowed. Ask an organisation admin to upgrade the plan.',
    );
    expect(newFeature().disabled).toBe(true);
    expect(newFeature().getAttribute('aria-describedby')).toBe(notice.closest('[id]')!.id);
    expect(screen.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull();
  });
});
