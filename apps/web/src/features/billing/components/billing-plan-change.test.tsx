import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import {
  billingPayload,
  renderBilling,
  resetOverlays,
  serveBilling,
  subscriptionFixture,
} from '../../../testing/billing-test-server';

const plan = (name: string) => screen.getByRole('article', { name: `${name} plan` });

describe('Billing tab: changing the plan and leaving for the provider', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('opens the billing details page the server answers', async () => {
    const calls = serveBilling({
      handlers: {
        'POST /api/v1/billing/subscription/manage': () => jsonResponse(200, { url: '/admin/billing/manage' }),
      },
    });
    const { router } = renderBilling();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Manage Billing Details' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/billing/manage'));
    expect(
      calls.some((call) => call.method === 'POST' && call.path === '/api/v1/billing/subscription/manage'),
    ).toBe(true);
  });

  it('leaves for the payment provider’s portal', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, href: 'http://localhost/admin/billing' });
    serveBilling({
      handlers: {
        'POST /api/v1/billing/subscription/manage': () =>
          jsonResponse(200, { url: 'https://billing.stripe.com/p/session/test_123' }),
      },
    });
    renderBilling();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Manage Billing Details' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.com/p/session/test_123'));
  });

  it('says so in a dialog when the billing portal cannot be reached', async () => {
    serveBilling({
      handlers: {
        'POST /api/v1/billing/subscription/manage': () =>
          jsonResponse(503, { title: 'The payment provider is unavailable.', code: 'billing_unavailable' }),
      },
    });
    renderBilling();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Manage Billing Details' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('Sorry, we were unable to access the billing portal. Please try again later.'),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('changes to the chosen plan and interval, following the address the server answers', async () => {
    const calls = serveBilling({
      handlers: {
        'POST /api/v1/billing/subscription/change': ({ body }) =>
          jsonResponse(200, {
            url: `/admin/billing/checkout?price=${(body as { subscriptionId: string }).subscriptionId}`,
          }),
      },
    });
    const { router } = renderBilling();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: 'Yearly' }));
    await user.click(within(plan('Team')).getByRole('button', { name: 'Choose Team' }));
    await waitFor(() => expect(router.state.location.search).toBe('?price=local-team-year'));
    expect(calls.find((call) => call.path === '/api/v1/billing/subscription/change')?.body).toEqual({
      subscriptionId: 'local-team-year',
    });
  });

  it('says what a plan change passes or loses before a provider that changes it at once is asked', async () => {
    const calls = serveBilling({
      preview: {
        plan: 'Team',
        exceeded: [{ key: 'maxProjects', used: 12, limit: 10, message: '12 projects; Team includes 10.' }],
        lost: [{ key: 'auditLog', message: 'The audit log: it is no longer shown.' }],
        confirmsAtCheckout: false,
      },
      handlers: {
        'POST /api/v1/billing/subscription/change': () => jsonResponse(200, { url: '/admin/billing' }),
      },
    });
    renderBilling();
    const user = userEvent.setup();
    const changes = () => calls.filter((call) => call.path === '/api/v1/billing/subscription/change');
    await user.click(await screen.findByRole('radio', { name: 'Yearly' }));
    await user.click(within(plan('Team')).getByRole('button', { name: 'Choose Team' }));
    let dialog = await screen.findByRole('dialog', { name: 'Move to Team?' });
    expect(within(dialog).getByRole('list', { name: 'Over the Team plan’s limits' }).textContent).toBe(
      '12 projects; Team includes 10.',
    );
    expect(within(dialog).getByRole('list', { name: 'You will lose' }).textContent).toBe(
      'The audit log: it is no longer shown.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(changes()).toEqual([]);

    await user.click(within(plan('Team')).getByRole('button', { name: 'Choose Team' }));
    dialog = await screen.findByRole('dialog', { name: 'Move to Team?' });
    await user.click(within(dialog).getByRole('button', { name: 'Move to Team' }));
    await waitFor(() => expect(changes()).toHaveLength(1));
  });

  it('offers the Free plan, and marks it when it is the current one', async () => {
    const calls = serveBilling({
      handlers: {
        'POST /api/v1/billing/subscription/change': () =>
          jsonResponse(200, { url: '/admin/billing/checkout?price=free' }),
      },
    });
    const { router, unmount } = renderBilling();
    await screen.findByRole('heading', { name: 'Plans' });
    await userEvent.setup().click(within(plan('Free')).getByRole('button', { name: 'Choose Free' }));
    await waitFor(() => expect(router.state.location.search).toBe('?price=free'));
    expect(calls.find((call) => call.path === '/api/v1/billing/subscription/change')?.body).toEqual({
      subscriptionId: 'free',
    });
    unmount();

    const free = subscriptionFixture({
      quantity: 1,
      total: 0,
      price: { ...subscriptionFixture().price!, productName: 'Free', amount: 0 },
    });
    serveBilling({ payload: billingPayload(free) });
    renderBilling();
    await screen.findByRole('heading', { name: 'Plans' });
    expect(within(plan('Free')).getByText('Current plan')).toBeVisible();
    expect(within(plan('Free')).queryByRole('button')).toBeNull();
    expect(within(plan('Team')).getByRole('button', { name: 'Choose Team' })).toBeVisible();
  });

  it('says why a change was refused, with Contact us', async () => {
    serveBilling({
      payload: billingPayload(null),
      handlers: {
        'POST /api/v1/billing/subscription/change': () =>
          jsonResponse(400, {
            title: 'The subscription could not be changed.',
            detail: 'Your card was declined.',
            code: 'subscription_change_refused',
          }),
      },
    });
    renderBilling();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Choose Team' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText('We could not update this subscription: Your card was declined.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'Contact us' }).getAttribute('href')).toMatch(/^mailto:/);
  });

  it('takes Update Subscription to the plans', async () => {
    serveBilling();
    renderBilling();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Update Subscription' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Plans' }));
  });
});
