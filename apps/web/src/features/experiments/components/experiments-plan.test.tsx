import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import {
  ENTERPRISE_PLAN_LIMITS,
  EXPERIMENTS_NOT_IN_PLAN,
  type Authority,
  type Subscription,
} from '@vexil/core';
import { FlagsProvider } from '../../../lib/flags';
import { SessionProvider } from '../../../lib/session';
import { allFlagsOn, initialPayload, trialSubscription } from '../../../testing/test-utils';
import { ExperimentsPage } from './experiments-page';
import {
  ADMIN,
  DEVELOPMENT,
  PROJECT,
  experimentFixture,
  renderScreen,
  resetOverlays,
  serveExperiments,
  userWith,
} from '../../../testing/experiments-test-server';

/** The Experiments page of an organisation whose plan has (or lacks) experiments, as `authority`. */
function renderOnPlan(variantTesting: boolean, options: { authority?: Authority; billing?: boolean } = {}) {
  const subscription: Subscription = {
    ...trialSubscription(0, false),
    limits: { ...ENTERPRISE_PLAN_LIMITS, variantTesting },
  };
  const authority = options.authority ?? 'ROLE_ORGANISATION_ADMIN';
  const flags = { ...allFlagsOn, billing: options.billing ?? true };
  const session = initialPayload({ subscription, flags });
  session.principalUser.authorities = [authority];
  return renderScreen(
    <SessionProvider session={session}>
      <FlagsProvider flags={flags}>
        <ExperimentsPage
          project={PROJECT}
          environment={DEVELOPMENT}
          user={authority === 'ROLE_ORGANISATION_ADMIN' ? ADMIN : userWith(authority)}
        />
      </FlagsProvider>
    </SessionProvider>,
    '/projects/:projectKey/environments/:environmentKey/experiments',
    '/projects/web/environments/dev/experiments',
  );
}

const newExperimentButtons = () =>
  screen.getAllByRole('button', { name: 'New Experiment' }) as HTMLButtonElement[];

describe('New Experiment and the plan', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('is disabled on a plan without experiments, saying why up front with the way to upgrade', async () => {
    serveExperiments();
    renderOnPlan(false);
    expect(await screen.findByText('No experiments yet')).toBeVisible();
    const notice = screen.getByText(EXPERIMENTS_NOT_IN_PLAN, { exact: false });
    const noticeId = notice.closest('[id]')!.id;
    for (const button of newExperimentButtons()) {
      expect(button.disabled).toBe(true);
      expect(button.getAttribute('aria-describedby')).toBe(noticeId);
    }
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('tells a member who may create experiments whom to ask', async () => {
    serveExperiments({ experiments: [experimentFixture('Next idea')] });
    renderOnPlan(false, { authority: 'ROLE_ORGANISATION_EDITOR' });
    await screen.findByText('Next idea');
    expect(screen.getByText(EXPERIMENTS_NOT_IN_PLAN, { exact: false }).textContent).toBe(
      `${EXPERIMENTS_NOT_IN_PLAN} Ask an organisation admin to upgrade the plan.`,
    );
    expect(newExperimentButtons().every((button) => button.disabled)).toBe(true);
    expect(screen.queryByRole('link', { name: 'Upgrade your plan' })).toBeNull();
  });

  it('is enabled on a plan with experiments, and whatever the plan with the billing flag off', async () => {
    serveExperiments();
    const { unmount } = renderOnPlan(true);
    await screen.findByText('No experiments yet');
    expect(newExperimentButtons().every((button) => !button.disabled)).toBe(true);
    expect(screen.queryByText(EXPERIMENTS_NOT_IN_PLAN, { exact: false })).toBeNull();
    unmount();
    renderOnPlan(false, { billing: false });
    await screen.findByText('No experiments yet');
    expect(newExperimentButtons().every((button) => !button.disabled)).toBe(true);
  });
});
