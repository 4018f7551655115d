import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import {
  billingPayload,
  cardInfo,
  renderBilling,
  resetOverlays,
  serveBilling,
  team,
  usageFixture,
} from '../../../testing/billing-test-server';

describe('Billing details page (local provider)', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('edits the billing contact, says there is no card, and goes back to Billing', async () => {
    const calls = serveBilling({
      info: { lastFour: null, brand: null, customer: cardInfo.customer },
      handlers: { 'PUT /api/v1/billing/local/contact': ({ body }) => jsonResponse(200, body) },
    });
    const { router } = renderBilling('/admin/billing/manage');
    const email = await screen.findByRole('textbox', { name: /Billing e-mail/ });
    expect((email as HTMLInputElement).value).toBe('billing@example.com');
    expect(screen.getByText('No card on file (self-hosted billing)')).toBeVisible();

    const user = userEvent.setup();
    await user.clear(email);
    await user.type(email, 'accounts@example.com');
    await user.clear(screen.getByRole('textbox', { name: 'Phone' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/billing'));
    expect(await screen.findByText('Billing details saved.')).toBeVisible();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      email: 'accounts@example.com',
      name: 'Ada Lovelace',
      phone: '',
    });
  });

  it('refuses an e-mail address that is not one, and sends nothing', async () => {
    const calls = serveBilling();
    renderBilling('/admin/billing/manage');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: /Billing e-mail/ }), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Email must be valid')).toBeVisible();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('tells others than organisation admins that billing is for admins', async () => {
    const payload = billingPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serveBilling({ payload });
    renderBilling('/admin/billing/manage');
    expect(await screen.findByText('Only organisation admins may manage billing...')).toBeVisible();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('Checkout page (local provider)', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the plan, interval, seats and price, and confirms it', async () => {
    let payload = billingPayload(null);
    const calls = serveBilling({
      usage: usageFixture({ seats: 3 }),
      handlers: {
        'GET /api/v1/initial': () => jsonResponse(200, payload),
        'POST /api/v1/billing/local/subscribe': () => {
          payload = billingPayload();
          return jsonResponse(200, payload.subscription);
        },
      },
    });
    const { router, queryClient } = renderBilling('/admin/billing/checkout?price=local-team-year');
    const table = await screen.findByRole('table', { name: 'Your new plan' });
    const value = (label: string) =>
      within(within(table).getByRole('rowheader', { name: label }).closest('tr')!).getByRole('cell')
        .textContent;
    expect(value('Plan')).toBe('Team');
    expect(value('Billing')).toBe('Yearly');
    expect(value('Seats')).toBe('3');
    expect(value('Price')).toBe('$16 per seat per month');
    expect(value('Total')).toBe('$576 per year');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/billing'));
    expect(await screen.findByText('You are now on the Team plan.')).toBeVisible();
    expect(calls.find((call) => call.path === '/api/v1/billing/local/subscribe')?.body).toEqual({
      priceId: 'local-team-year',
    });
    // The session (limits, trial banner) is reloaded with the new subscription.
    await waitFor(() =>
      expect(
        queryClient.getQueryData<typeof payload>(['account', 'initial'])?.subscription?.price?.productName,
      ).toBe('Team'),
    );
  });

  it('shows why the server refused, and stays', async () => {
    serveBilling({
      products: [team],
      handlers: {
        'POST /api/v1/billing/local/subscribe': () =>
          jsonResponse(400, { title: 'Only 1 user(s) allowed.', code: 'limit_reached' }),
      },
    });
    const { router } = renderBilling('/admin/billing/checkout?price=free');
    expect(await screen.findByRole('cell', { name: 'Free' })).toBeVisible();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Only 1 user(s) allowed.');
    expect(router.state.location.pathname).toBe('/admin/billing/checkout');
  });

  it('says a plan that is not on sale is not', async () => {
    serveBilling();
    renderBilling('/admin/billing/checkout?price=local-gone-month');
    expect(await screen.findByText('This plan is not on sale.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Choose another plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });
});
