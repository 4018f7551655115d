import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiClient } from '../lib/api-client';
import { rememberOrganisation } from '../lib/remembered-organisation';
import { allFlagsOn, initialPayload, jsonResponse, renderRoutes, stubApi } from '../testing/test-utils';
import { routes } from './routes';

const demoContext = { organisation: { id: 'o1', name: 'Demo', domain: 'demo' }, flags: allFlagsOn };
const bareContext = { organisation: null, flags: allFlagsOn };
const signedOut = () => jsonResponse(401, { title: 'Authentication required' });

function render(path: string) {
  const result = renderRoutes(routes, path);
  apiClient.configure({ onUnauthorised: () => void result.router.navigate('/logout') });
  return result;
}

const pathOf = (router: ReturnType<typeof render>['router']) => router.state.location.pathname;

describe('routes', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  describe('session gate', () => {
    it('remembers the visited path, sends a signed-out visitor to sign in and restores the path after', async () => {
      let session = false;
      const calls = stubApi({
        'GET /api/v1/initial': () => (session ? jsonResponse(200, initialPayload()) : signedOut()),
        'GET /api/v1/public/context': ({ url }) =>
          jsonResponse(200, url.searchParams.get('domain') === 'demo' ? demoContext : bareContext),
        'POST /api/authenticate': () => {
          session = true;
          return jsonResponse(200, { id_token: 't' });
        },
      });
      const { router } = render('/profile');
      // On the bare app address, with app-login on and no remembered organisation: sign-up.
      expect(await screen.findByText('Confirm your e-mail')).toBeVisible();
      expect(pathOf(router)).toBe('/signup');
      expect(sessionStorage.getItem('vexil.returnPath')).toBe('/profile');

      const user = userEvent.setup();
      await user.click(screen.getByRole('link', { name: 'Sign in' }));
      expect(await screen.findByText('Sign in to Vexil')).toBeVisible();
      await user.type(screen.getByLabelText('Organisation'), 'Demo');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('Sign in to Demo')).toBeVisible();
      expect(pathOf(router)).toBe('/demo/login');

      await user.type(screen.getByLabelText('Email'), 'admin@example.com');
      await user.type(screen.getByLabelText('Password'), 'secret-password');
      await user.click(screen.getByLabelText('Keep me signed in'));
      await user.click(screen.getByRole('button', { name: 'Sign in' }));

      expect(await screen.findByRole('heading', { name: 'Profile' })).toBeVisible();
      expect(pathOf(router)).toBe('/profile');
      expect(calls.find((c) => c.path === '/api/authenticate')?.body).toEqual({
        username: 'admin@example.com',
        password: 'secret-password',
        domain: 'demo',
        rememberMe: true,
      });
      expect(document.cookie).toContain('subdomain=demo');
    });

    it('sends a signed-out visitor to sign in when app-login is off, or when an organisation is remembered', async () => {
      stubApi({
        'GET /api/v1/initial': signedOut,
        'GET /api/v1/public/context': () =>
          jsonResponse(200, { ...bareContext, flags: { ...allFlagsOn, 'app-login': false } }),
      });
      const first = render('/profile');
      expect(await screen.findByText('Sign in to Vexil')).toBeVisible();
      expect(pathOf(first.router)).toBe('/login');
      // Without app-login, the bare page offers no sign-up.
      expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
      first.unmount();

      stubApi({
        'GET /api/v1/initial': signedOut,
        'GET /api/v1/public/context': ({ url }) =>
          jsonResponse(200, url.searchParams.get('domain') === 'demo' ? demoContext : bareContext),
      });
      rememberOrganisation('demo');
      const second = render('/profile');
      expect(await screen.findByText('Sign in to Demo')).toBeVisible();
      expect(pathOf(second.router)).toBe('/demo/login');
    });

    it('shows the Loading page while the initial payload loads', async () => {
      stubApi({ 'GET /api/v1/initial': () => new Promise<Response>(() => undefined) });
      render('/');
      expect(await screen.findByText('Loading')).toBeVisible();
    });

    it('goes to /logout, then /login, when the initial load fails', async () => {
      const calls = stubApi({
        'GET /api/v1/initial': () => jsonResponse(403, { title: 'Nope' }),
        'POST /api/logout': () => new Response(null, { status: 204 }),
        'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
      });
      const { router } = render('/home');
      await waitFor(() => expect(pathOf(router)).toBe('/login'));
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/logout')).toBe(true);
    });
  });

  describe('/login', () => {
    beforeEach(() => {
      stubApi({
        'GET /api/v1/initial': signedOut,
        'GET /api/v1/public/context': ({ url }) =>
          jsonResponse(200, url.searchParams.get('domain') === 'demo' ? demoContext : bareContext),
        'POST /api/authenticate': ({ body }) =>
          (body as { password: string }).password === 'no-title'
            ? jsonResponse(401, {})
            : jsonResponse(401, { title: 'Too many attempts, please try again later.' }),
      });
    });

    it('shows the product’s messages for a missing e-mail and password', async () => {
      render('/demo/login');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText('Please provide an email address.')).toBeVisible();
      expect(screen.getByText('Please provide a password.')).toBeVisible();
    });

    it('checks a field again as it is corrected once a sign-in was refused, and focuses the first to correct', async () => {
      render('/demo/login');
      const user = userEvent.setup();
      const email = await screen.findByLabelText('Email');
      const password = screen.getByLabelText('Password');
      await user.type(password, 'x');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText('Please provide an email address.')).toBeVisible();
      expect(document.activeElement).toBe(email);

      await user.type(email, 'bob');
      expect(screen.getByText('bob is not a valid email.')).toBeVisible();
      await user.type(email, '@example.com');
      expect(screen.queryByText(/not a valid email/)).toBeNull();

      await user.clear(password);
      expect(screen.getByText('Please provide a password.')).toBeVisible();
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(document.activeElement).toBe(password);
      await user.type(password, 'y');
      expect(screen.queryByText('Please provide a password.')).toBeNull();
    });

    it('shows "{value} is not a valid email."', async () => {
      render('/demo/login');
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText('Email'), 'bob');
      await user.type(screen.getByLabelText('Password'), 'x');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText('bob is not a valid email.')).toBeVisible();
    });

    it("shows the server's message, or the product's own when it has none", async () => {
      render('/demo/login');
      const user = userEvent.setup();
      await user.type(await screen.findByLabelText('Email'), 'admin@example.com');
      await user.type(screen.getByLabelText('Password'), 'wrong');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      expect((await screen.findByRole('alert')).textContent).toContain(
        'Too many attempts, please try again later.',
      );

      await user.clear(screen.getByLabelText('Password'));
      await user.type(screen.getByLabelText('Password'), 'no-title');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() =>
        expect(screen.getByRole('alert').textContent).toContain(
          'The email and password combination you have provided is invalid.',
        ),
      );
    });

    it('goes straight to the remembered organisation on the bare app address', async () => {
      rememberOrganisation('demo');
      const { router } = render('/login');
      expect(await screen.findByText('Sign in to Demo')).toBeVisible();
      expect(pathOf(router)).toBe('/demo/login');
    });

    it('says when the organisation in the path does not exist', async () => {
      render('/nowhere/login');
      expect(await screen.findByText(/We could not find an organisation with the domain/)).toBeVisible();
      expect(screen.getByLabelText('Organisation')).toBeVisible();
    });

    it('signs up by e-mail from the bare app address: the wizard sends the pin at once', async () => {
      const calls = stubApi({
        'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
        'POST /api/v1/signup/registeremail': () => jsonResponse(200, { once: 'once-1' }),
      });
      const { router } = render('/login');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Sign up' }));
      expect(await screen.findByText('Please provide an email address.')).toBeVisible();
      await user.type(screen.getByLabelText('Work e-mail'), 'grace@example.com');
      await user.click(screen.getByRole('button', { name: 'Sign up' }));
      expect(await screen.findByText(/We sent a 6-digit pin to/)).toBeVisible();
      expect(screen.getByText('grace@example.com')).toBeVisible();
      expect(pathOf(router)).toBe('/signup');
      expect(calls.filter((c) => c.path === '/api/v1/signup/registeremail').map((c) => c.body)).toEqual([
        { email: 'grace@example.com', beta: false },
      ]);
    });

    it('asks for an organisation domain before going on', async () => {
      render('/login');
      const user = userEvent.setup();
      await user.click(await screen.findByRole('button', { name: 'Continue' }));
      expect(await screen.findByText("Please provide your organisation's domain.")).toBeVisible();
    });
  });

  it('sends a signed-in user from /login to home', async () => {
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/public/context': () => jsonResponse(200, demoContext),
    });
    const { router } = render('/demo/login');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
    expect(pathOf(router)).toBe('/');
  });

  describe('/login/{token}', () => {
    it('exchanges the token and goes home', async () => {
      let session = false;
      const calls = stubApi({
        'GET /api/v1/initial': () => (session ? jsonResponse(200, initialPayload()) : signedOut()),
        'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
        'POST /api/authenticate/token': () => {
          session = true;
          return jsonResponse(200, { id_token: 't' });
        },
      });
      const { router } = render('/login/one-time-token?domain=demo');
      expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
      expect(pathOf(router)).toBe('/');
      expect(calls.find((c) => c.path === '/api/authenticate/token')?.body).toEqual({
        token: 'one-time-token',
        domain: 'demo',
        rememberMe: false,
      });
    });

    it('goes to /login when the token is refused', async () => {
      stubApi({
        'GET /api/v1/initial': signedOut,
        'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
        'POST /api/authenticate/token': () => jsonResponse(401, { title: 'Expired' }),
      });
      const { router } = render('/login/old-token');
      expect(await screen.findByText('Sign in to Vexil')).toBeVisible();
      expect(pathOf(router)).toBe('/login');
    });
  });

  it('/logout ends the session, forgets cached data and goes to /login', async () => {
    const calls = stubApi({
      'POST /api/logout': () => new Response(null, { status: 204 }),
      'GET /api/v1/initial': signedOut,
      'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
    });
    const { router, queryClient } = render('/logout');
    queryClient.setQueryData(['something', 'cached'], 1);
    await waitFor(() => expect(pathOf(router)).toBe('/login'));
    expect(calls.filter((c) => c.path === '/api/logout')).toHaveLength(1);
    expect(queryClient.getQueryData(['something', 'cached'])).toBeUndefined();
  });

  describe('signed in', () => {
    function signIn(payload = initialPayload()) {
      return stubApi({
        'GET /api/v1/initial': () => jsonResponse(200, payload),
        'GET /api/v1/401': () => jsonResponse(401, { title: 'Test 401' }),
        'POST /api/logout': () => new Response(null, { status: 204 }),
        'GET /api/v1/public/context': () => jsonResponse(200, bareContext),
      });
    }

    it('shows Page not found with a Head home link for unknown paths', async () => {
      signIn();
      const { router } = render('/no/such/page');
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
      await userEvent.setup().click(screen.getByRole('link', { name: 'Head home' }));
      expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
      expect(pathOf(router)).toBe('/');
    });

    it('shows the full name and e-mail on /profile', async () => {
      signIn();
      render('/profile');
      const main = await screen.findByRole('main');
      await within(main).findByRole('heading', { name: 'Profile' });
      expect(within(main).getAllByText('Demo Admin').length).toBeGreaterThan(0);
      expect(within(main).getAllByText('admin@example.com').length).toBeGreaterThan(0);
    });

    it('treats /profile as not found when the profile flag is off', async () => {
      signIn(initialPayload({ flags: { ...allFlagsOn, profile: false } }));
      render('/profile');
      expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    });

    it('/test/401 signs the user out when its call answers 401', async () => {
      signIn();
      const { router } = render('/test/401');
      await waitFor(() => expect(pathOf(router)).toBe('/login'));
    });
  });
});
