import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiClient } from '../lib/api-client';
import { allFlagsOn, initialPayload, jsonResponse, renderRoutes, stubApi } from '../testing/test-utils';
import { routes } from './routes';

/*
 * Links Vexil sends outside the dashboard (Slack, webhooks, Jira comments) carry the organisation in
 * the path form, /{organisation}/projects/…: they must reach that organisation's sign-in and then the
 * page, never the bare address's sign-up (docs/product.md "Integrations").
 */

const demoContext = { organisation: { id: 'o1', name: 'Demo', domain: 'demo' }, flags: allFlagsOn };
const bareContext = { organisation: null, flags: allFlagsOn };
const signedOut = () => jsonResponse(401, { title: 'Authentication required' });
const FEATURE_PAGE = '/projects/web/environments/production/features/checkout';

function render(path: string) {
  const result = renderRoutes(routes, path);
  apiClient.configure({ onUnauthorised: () => void result.router.navigate('/logout') });
  return result;
}

const pathOf = (router: ReturnType<typeof render>['router']) => router.state.location.pathname;
/** Screens load on first visit: a busy machine can take more than the default second. */
const patiently = { timeout: 10_000 };

describe('links into an organisation', { timeout: 30_000 }, () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });

  it('takes a browser without a session to the organisation’s sign-in, then to the page', async () => {
    let session = false;
    stubApi({
      'GET /api/v1/initial': () => (session ? jsonResponse(200, initialPayload()) : signedOut()),
      'GET /api/v1/public/context': ({ url }) =>
        jsonResponse(200, url.searchParams.get('domain') === 'demo' ? demoContext : bareContext),
      'POST /api/authenticate': () => {
        session = true;
        return jsonResponse(200, { id_token: 't' });
      },
    });
    const { router } = render(`/demo${FEATURE_PAGE}?from=slack`);
    expect(await screen.findByText('Sign in to Demo', undefined, patiently)).toBeVisible();
    expect(pathOf(router)).toBe('/demo/login');
    expect(screen.queryByText('Confirm your e-mail')).toBeNull();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(pathOf(router)).toBe(FEATURE_PAGE), patiently);
    expect(router.state.location.search).toBe('?from=slack');
  });

  it('opens the page at once when signed in to that organisation', async () => {
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
    });
    const { router } = render('/demo/home');
    expect(await screen.findByRole('heading', { name: 'Home' }, patiently)).toBeVisible();
    expect(pathOf(router)).toBe('/home');
  });

  it('shows the organisation’s sign-in to a user signed in to another one, instead of their home', async () => {
    const other = initialPayload();
    other.organisation = { ...other.organisation, name: 'Other', domain: 'other' };
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, other),
      'GET /api/v1/public/context': ({ url }) =>
        jsonResponse(200, url.searchParams.get('domain') === 'demo' ? demoContext : bareContext),
    });
    const { router } = render(`/demo${FEATURE_PAGE}`);
    expect(await screen.findByText('Sign in to Demo', undefined, patiently)).toBeVisible();
    expect(pathOf(router)).toBe('/demo/login');
    expect(sessionStorage.getItem('vexil.returnPath')).toBe(FEATURE_PAGE);
  });

  it('comes back to the page after single sign-on, and starts a new organisation at home', async () => {
    let session = false;
    stubApi({
      'GET /api/v1/initial': () => (session ? jsonResponse(200, initialPayload()) : signedOut()),
      'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
      'POST /api/authenticate/token': () => {
        session = true;
        return jsonResponse(200, { id_token: 't' });
      },
    });
    sessionStorage.setItem('vexil.returnPath', '/profile');
    const sso = render('/login/one-time-token?domain=demo&rememberMe=false');
    await waitFor(() => expect(pathOf(sso.router)).toBe('/profile'), patiently);
    sso.unmount();

    session = false;
    sessionStorage.setItem('vexil.returnPath', '/profile');
    const signup = render('/login/one-time-token?domain=demo');
    expect(await screen.findByRole('heading', { name: 'Home' }, patiently)).toBeVisible();
    expect(pathOf(signup.router)).toBe('/');
  });
});
