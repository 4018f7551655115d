import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { Outlet, type RouteObject } from 'react-router';
import type { InitialPayload } from '@vexil/core';
import {
  initialPayload,
  jsonResponse,
  renderRoutes,
  stubApi,
  trialSubscription,
} from '../testing/test-utils';
import { INACTIVE_ACCOUNT_MESSAGE, INACTIVE_TOAST_DELAY_MS } from './inactive-subscription';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';

/**
 * The session gate with a few screens behind it, and /logout outside it as in the route table;
 * `billing` is the Billing screen's route (a test makes it load on demand).
 */
function routesWith(billing: RouteObject): RouteObject[] {
  return [
    {
      element: <RootLayout />,
      children: [
        { path: 'logout', element: <p>Signing out</p> },
        {
          element: (
            <RequireSession>
              <Outlet />
            </RequireSession>
          ),
          children: [
            { path: '/', element: <h1>Home</h1> },
            billing,
            { path: 'admin/billing/checkout', element: <h1>Confirm your plan</h1> },
          ],
        },
      ],
    },
  ];
}

const routes = routesWith({ path: 'admin/billing', element: <h1>Billing</h1> });

function payload(status: 'active' | 'inactive', authority = 'ROLE_ORGANISATION_ADMIN'): InitialPayload {
  const result = initialPayload({ subscription: { ...trialSubscription(0, false), status } });
  result.principalUser.authorities = [authority as InitialPayload['principalUser']['authorities'][number]];
  return result;
}

function open(path: string, session: InitialPayload) {
  stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, session) });
  return renderRoutes(routes, path);
}

/** Waits for the inactive-account toast; resolves with how long after `since` it appeared. */
async function toastDelay(since: number): Promise<number> {
  await screen.findByText(INACTIVE_ACCOUNT_MESSAGE, undefined, { timeout: 3000 });
  return performance.now() - since;
}

describe('an inactive subscription after the initial load', () => {
  afterEach(() => {
    notifications.clean();
    vi.unstubAllGlobals();
  });

  it('sends an organisation admin to Billing, then says why after 500 ms', async () => {
    const { router } = open('/', payload('inactive'));
    await screen.findByRole('heading', { name: 'Billing' });
    const redirected = performance.now();
    expect(router.state.location.pathname).toBe('/admin/billing');
    expect(screen.queryByText(INACTIVE_ACCOUNT_MESSAGE)).toBeNull();
    // Timers fire a little early or late in jsdom; well past half of it and shown once.
    expect(await toastDelay(redirected)).toBeGreaterThan(INACTIVE_TOAST_DELAY_MS - 100);
    expect(screen.getAllByText(INACTIVE_ACCOUNT_MESSAGE)).toHaveLength(1);
  });

  it('counts the 500 ms from the arrival on Billing when its screen loads on demand', async () => {
    const LOADING_MS = 400;
    const lazyBilling = routesWith({
      path: 'admin/billing',
      lazy: async () => {
        await new Promise((resolve) => setTimeout(resolve, LOADING_MS));
        return { element: <h1>Billing</h1> };
      },
    });
    stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload('inactive')) });
    const { router } = renderRoutes(lazyBilling, '/');
    await screen.findByRole('heading', { name: 'Billing' }, { timeout: 3000 });
    const arrived = performance.now();
    expect(router.state.location.pathname).toBe('/admin/billing');
    expect(screen.queryByText(INACTIVE_ACCOUNT_MESSAGE)).toBeNull();
    expect(await toastDelay(arrived)).toBeGreaterThan(INACTIVE_TOAST_DELAY_MS - 100);
  });

  it('leaves an organisation admin on the billing pages', async () => {
    const { router } = open('/admin/billing/checkout?price=local-team-month', payload('inactive'));
    await screen.findByRole('heading', { name: 'Confirm your plan' });
    await toastDelay(performance.now());
    expect(router.state.location.pathname).toBe('/admin/billing/checkout');
    expect(router.state.location.search).toBe('?price=local-team-month');
  });

  it('signs anyone else out, then says why after 500 ms', async () => {
    const { router } = open('/', payload('inactive', 'ROLE_ORGANISATION_EDITOR'));
    await screen.findByText('Signing out');
    const redirected = performance.now();
    expect(router.state.location.pathname).toBe('/logout');
    expect(screen.queryByText(INACTIVE_ACCOUNT_MESSAGE)).toBeNull();
    expect(await toastDelay(redirected)).toBeGreaterThan(INACTIVE_TOAST_DELAY_MS - 100);
  });

  it.each([
    ['active', payload('active', 'ROLE_ORGANISATION_EDITOR')],
    ['absent (billing off)', initialPayload({ subscription: null })],
  ])('changes nothing while the subscription is %s', async (_, session) => {
    const { router } = open('/', session);
    await screen.findByRole('heading', { name: 'Home' });
    await new Promise((resolve) => setTimeout(resolve, INACTIVE_TOAST_DELAY_MS + 100));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByText(INACTIVE_ACCOUNT_MESSAGE)).toBeNull();
  });
});
