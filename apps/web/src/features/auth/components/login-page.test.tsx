import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SSO_FAILURE_MESSAGES, ssoRequiredMessage, type PublicSso } from '@vexil/core';
import { rememberOrganisation } from '../../../lib/remembered-organisation';
import { accountKeys } from '../../../entities/account/api/query-keys';
import {
  allFlagsOn,
  createTestQueryClient,
  initialPayload,
  jsonResponse,
  renderRoutes,
  stubApi,
} from '../../../testing/test-utils';
import { LoginPage } from './login-page';

const organisation = { id: 'o1', name: 'Demo', domain: 'demo' };

/** The public context of /demo/login (with `sso`), or of the bare address (no organisation). */
function serveContext(sso: PublicSso | null, authenticate?: () => Response) {
  return stubApi({
    'GET /api/v1/public/context': ({ url }) =>
      jsonResponse(
        200,
        url.searchParams.get('domain') === 'demo'
          ? { organisation, flags: allFlagsOn, sso }
          : { organisation: null, flags: allFlagsOn, sso: null },
      ),
    ...(authenticate ? { 'POST /api/authenticate': authenticate } : {}),
  });
}

function renderLogin(path: string) {
  const result = renderRoutes(
    [
      { path: 'login', element: <LoginPage /> },
      { path: ':organisation/login', element: <LoginPage /> },
    ],
    path,
  );
  return { ...result, user: userEvent.setup() };
}

const ssoLink = (name: string) => screen.getByRole('link', { name: `Sign in with ${name}` });
const startQuery = (link: HTMLElement) => {
  const url = new URL(link.getAttribute('href')!, 'http://localhost');
  return {
    path: url.pathname,
    domain: url.searchParams.get('domain'),
    rememberMe: url.searchParams.get('rememberMe'),
  };
};

describe('sign-in page with single sign-on', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers only the password form when the organisation has no single sign-on', async () => {
    serveContext(null);
    renderLogin('/demo/login');
    expect(await screen.findByRole('heading', { name: 'Sign in to Demo' })).toBeVisible();
    expect(screen.queryByRole('link', { name: /^Sign in with/ })).toBeNull();
    expect(screen.getByLabelText('Email')).toBeVisible();
    expect(screen.getByText('Welcome back. Sign in with your e-mail address.')).toBeVisible();
  });

  it('offers "Sign in with {name}" above the password form, honouring "Keep me signed in"', async () => {
    serveContext({ displayName: 'Acme ID', required: false });
    const { user } = renderLogin('/demo/login');
    await screen.findByRole('heading', { name: 'Sign in to Demo' });

    const link = ssoLink('Acme ID');
    expect(startQuery(link)).toEqual({ path: '/api/v1/sso/start', domain: 'demo', rememberMe: 'false' });
    expect(screen.getByText('or')).toBeVisible();
    const email = screen.getByLabelText('Email');
    // The single sign-on button comes first, the password form after it.
    expect(link.compareDocumentPosition(email) & Node.DOCUMENT_POSITION_FOLLOWING).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeVisible();

    await user.click(screen.getByLabelText('Keep me signed in'));
    expect(startQuery(ssoLink('Acme ID')).rememberMe).toBe('true');
  });

  it('folds the password form behind a button for admins when single sign-on is required', async () => {
    const calls = serveContext({ displayName: 'Acme ID', required: true }, () =>
      jsonResponse(400, { title: ssoRequiredMessage('Acme ID') }),
    );
    const { user } = renderLogin('/demo/login');
    await screen.findByRole('heading', { name: 'Sign in to Demo' });

    expect(screen.getByText('Your organisation signs in with Acme ID.')).toBeVisible();
    expect(ssoLink('Acme ID')).toBeVisible();
    expect(screen.queryByLabelText('Email')).toBeNull();
    const toggle = screen.getByRole('button', { name: 'Sign in with a password (organisation admins)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const email = screen.getByLabelText('Email');
    expect(document.activeElement).toBe(email);

    // A member who is not an admin is told to use single sign-on.
    await user.type(email, 'member@example.com');
    await user.type(screen.getByLabelText('Password'), 'a password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ssoRequiredMessage('Acme ID'));
    expect(calls.some((call) => call.path === '/api/authenticate')).toBe(true);

    await user.click(toggle);
    expect(screen.queryByLabelText('Email')).toBeNull();
  });

  it('explains why single sign-on failed when it comes back with ?sso={reason}', async () => {
    serveContext({ displayName: 'Acme ID', required: false });
    renderLogin('/demo/login?sso=not-allowed');
    expect((await screen.findByRole('alert')).textContent).toBe(SSO_FAILURE_MESSAGES['not-allowed']);
    expect(ssoLink('Acme ID')).toBeVisible();
  });

  it('says nothing for a reason it does not know', async () => {
    serveContext({ displayName: 'Acme ID', required: false });
    renderLogin('/demo/login?sso=<b>hello</b>');
    await screen.findByRole('heading', { name: 'Sign in to Demo' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the reason when the bare address reopens the remembered organisation', async () => {
    serveContext(null);
    rememberOrganisation('demo');
    const { router } = renderLogin('/login?sso=not-configured');
    expect((await screen.findByRole('alert')).textContent).toBe(SSO_FAILURE_MESSAGES['not-configured']);
    await waitFor(() => expect(router.state.location.pathname).toBe('/demo/login'));
    expect(router.state.location.search).toBe('?sso=not-configured');
  });
});

describe('sign-in page of another organisation than the session’s', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says who is signed in where, and signing out leaves this organisation’s form', async () => {
    let loggedOut = false;
    const calls = stubApi({
      'GET /api/v1/public/context': () => jsonResponse(200, { organisation, flags: allFlagsOn, sso: null }),
      'GET /api/v1/initial': () => jsonResponse(401, { title: 'Authentication required' }),
      'POST /api/logout': () => {
        loggedOut = true;
        return new Response(null, { status: 204 });
      },
    });
    // Signed in to Acme (as RedirectIfSignedIn loaded it), on Demo's sign-in page.
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(
      accountKeys.initial,
      initialPayload({
        organisation: { id: 'o2', name: 'Acme', domain: 'acme', settings: { jiraEnabled: false } },
      }),
    );
    const { router } = renderRoutes(
      [{ path: ':organisation/login', element: <LoginPage /> }],
      '/demo/login',
      queryClient,
    );
    expect(await screen.findByText('You are signed in to Acme as admin@example.com.')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Sign in to Demo' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Acme' }).getAttribute('href')).toBe('/');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out of Acme' }));
    await waitFor(() => expect(screen.queryByText(/You are signed in to/)).toBeNull());
    expect(loggedOut).toBe(true);
    expect(calls.filter((c) => c.path === '/api/logout')).toHaveLength(1);
    expect(await screen.findByRole('heading', { name: 'Sign in to Demo' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/demo/login');
  });

  it('says nothing on the sign-in page of the session’s own organisation', async () => {
    serveContext(null);
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(accountKeys.initial, initialPayload());
    renderRoutes([{ path: ':organisation/login', element: <LoginPage /> }], '/demo/login', queryClient);
    expect(await screen.findByRole('heading', { name: 'Sign in to Demo' })).toBeVisible();
    expect(screen.queryByText(/You are signed in to/)).toBeNull();
  });
});
