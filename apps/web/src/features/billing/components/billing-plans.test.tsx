import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlanChangePreview } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import {
  SALES_CONTACT,
  billingPayload,
  renderBilling,
  resetOverlays,
  serveBilling,
  subscriptionFixture,
  usageFixture,
} from '../../../testing/billing-test-server';
import { OVER_LIMITS_NOTE } from './plan-consequences';

const plan = (name: string) => screen.getByRole('article', { name: `${name} plan` });
/** The Plans section: a cold worker's first render can take longer than a second. */
const plansShown = () => screen.findByRole('heading', { name: 'Plans' }, { timeout: 10_000 });
const cards = () => screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'));

describe('Plans: the current plan and the sales contact', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('marks the plan on trial as current, in either interval, and offers to buy it instead of choosing it', async () => {
    serveBilling({
      payload: billingPayload(subscriptionFixture({ inTrial: true, daysUntilEndOfTrial: 12 })),
    });
    renderBilling();
    await plansShown();
    const user = userEvent.setup();
    for (const interval of ['Monthly', 'Yearly']) {
      await user.click(screen.getByText(interval));
      expect(within(plan('Team')).getByText('Current plan (trial)')).toBeVisible();
      expect(within(plan('Team')).queryByRole('button', { name: 'Choose Team' })).toBeNull();
      expect(within(plan('Team')).getByRole('button', { name: 'Buy Team' })).toHaveProperty(
        'disabled',
        false,
      );
      expect(within(plan('Free')).queryByText(/Current plan/)).toBeNull();
    }
  });

  it('leads Contact us to the server’s sales contact', async () => {
    serveBilling();
    renderBilling();
    await plansShown();
    expect(cards()).toEqual(['Free plan', 'Team plan', 'Enterprise plan']);
    expect(within(plan('Enterprise')).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toBe(
      SALES_CONTACT,
    );
  });

  it('hides the Enterprise card and the refusal’s Contact us when the server names no sales contact', async () => {
    serveBilling({
      salesContact: null,
      payload: billingPayload(null),
      handlers: {
        'POST /api/v1/billing/subscription/change': () =>
          jsonResponse(400, {
            title: 'We could not update this subscription.',
            detail: 'Your card was declined.',
            code: 'subscription_change_refused',
          }),
      },
    });
    renderBilling();
    await plansShown();
    expect(cards()).toEqual(['Free plan', 'Team plan']);
    expect(screen.queryByText('Enterprise')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Choose Team' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Your card was declined\./)).toBeVisible();
    expect(within(dialog).queryByRole('link', { name: 'Contact us' })).toBeNull();
  });
});

describe('Checkout: what a change of plan means, before it is confirmed', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  const downgrade: PlanChangePreview = {
    plan: 'Free',
    exceeded: [
      {
        key: 'maxOrganisationUsers',
        used: 2,
        limit: 1,
        message: '2 seats in use (members and pending invitations); Free includes 1.',
      },
      { key: 'maxProjects', used: 10, limit: 1, message: '10 projects; Free includes 1.' },
    ],
    lost: [
      { key: 'auditLog', message: 'The audit log: it is no longer shown.' },
      { key: 'variantTesting', message: 'Experiments: they can no longer be created or changed.' },
      { key: 'trial', message: 'The 12 days left in your trial: the trial ends now.' },
    ],
    confirmsAtCheckout: true,
  };

  it('lists the Free plan’s limits the organisation passes and what it would lose, above Confirm', async () => {
    const calls = serveBilling({
      payload: billingPayload(subscriptionFixture({ inTrial: true, daysUntilEndOfTrial: 12 })),
      usage: usageFixture({ seats: 2, projectsUsed: 10 }),
      preview: downgrade,
    });
    renderBilling('/admin/billing/checkout?price=free');
    const over = await screen.findByRole(
      'list',
      { name: 'Over the Free plan’s limits' },
      { timeout: 10_000 },
    );
    expect(
      within(over)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      '2 seats in use (members and pending invitations); Free includes 1.',
      '10 projects; Free includes 1.',
    ]);
    expect(screen.getByText(OVER_LIMITS_NOTE)).toBeVisible();
    const lost = screen.getByRole('list', { name: 'You will lose' });
    expect(
      within(lost)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'The audit log: it is no longer shown.',
      'Experiments: they can no longer be created or changed.',
      'The 12 days left in your trial: the trial ends now.',
    ]);
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeVisible();
    expect(calls.some((call) => call.path === '/api/v1/billing/change-preview?price=free')).toBe(true);
    expect(calls.some((call) => call.path === '/api/v1/billing/local/subscribe')).toBe(false);
  });

  it('says nothing more when the organisation fits the plan and loses nothing', async () => {
    serveBilling({ usage: usageFixture({ seats: 3 }) });
    renderBilling('/admin/billing/checkout?price=local-team-month');
    await screen.findByRole('table', { name: 'Your new plan' }, { timeout: 10_000 });
    expect(screen.queryByRole('list', { name: 'You will lose' })).toBeNull();
    expect(screen.queryByText(/Before you move to/)).toBeNull();
  });
});
