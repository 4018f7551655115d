import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderRoutes, stubApi } from '../../../testing/test-utils';
import { ActivatePage, SignupWizardPage } from './signup-wizard-page';

const PIN = '042917';

function renderWizard(path = '/signup') {
  return renderRoutes(
    [
      { path: 'signup', element: <SignupWizardPage /> },
      { path: 'activate', element: <ActivatePage /> },
      { path: 'login', element: <p>Sign-in page</p> },
      { path: 'login/:token', element: <p>Token sign-in</p> },
    ],
    path,
  );
}

/** The server as the wizard meets it: `taken` domains are unavailable, the pin is PIN. */
function stubServer(options: { taken?: string[]; token?: string } = {}) {
  const taken = new Set(options.taken ?? []);
  return stubApi({
    'POST /api/v1/signup/registeremail': () => jsonResponse(200, { once: 'vxu_once' }),
    'POST /api/v1/signup/validatepin': ({ body }) =>
      (body as { pin: string }).pin === PIN
        ? new Response(null, { status: 204 })
        : jsonResponse(400, {
            title: 'The pin you have entered is invalid.',
            errors: [{ field: 'pin', message: 'The pin you have entered is invalid.' }],
          }),
    'POST /api/v1/signup/checkdomain': ({ body }) => {
      const { domain } = body as { domain: string };
      return jsonResponse(
        200,
        taken.has(domain)
          ? { available: false, suggestions: [`${domain}-global`, `${domain}-company`] }
          : { available: true, suggestions: [] },
      );
    },
    'POST /api/v1/signup/createaccount': ({ body }) =>
      jsonResponse(200, {
        token: options.token ?? 'vxo_token',
        domain: (body as { organisationDomain: string }).organisationDomain,
      }),
  });
}

async function confirmEmail(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Email'), 'grace@example.com');
  await user.click(screen.getByRole('button', { name: 'Send me a pin' }));
  await screen.findByText(/We sent a 6-digit pin to/);
  await user.click(screen.getAllByLabelText('Pin')[0]!);
  await user.keyboard(PIN);
  await screen.findByRole('heading', { name: 'Choose a password' });
}

describe('Sign-up wizard (/signup)', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('accepts only digits in the pin and checks it by itself at the 6th digit', async () => {
    const calls = stubServer();
    renderWizard();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a pin' }));
    await screen.findByText(/We sent a 6-digit pin to/);
    const boxes = screen.getAllByLabelText('Pin') as HTMLInputElement[];
    await user.click(boxes[0]!);
    await user.keyboard('a1');
    expect(boxes[0]!.value).toBe('1');
    await user.keyboard('23450');
    expect(await screen.findByText('The pin you have entered is invalid.')).toBeVisible();
    await user.click(screen.getAllByLabelText('Pin')[0]!);
    await user.keyboard(PIN);
    expect(await screen.findByRole('heading', { name: 'Choose a password' })).toBeVisible();
    expect(calls.filter((c) => c.path === '/api/v1/signup/validatepin').map((c) => c.body)).toEqual([
      { email: 'grace@example.com', once: 'vxu_once', pin: '123450' },
      { email: 'grace@example.com', once: 'vxu_once', pin: PIN },
    ]);
  });

  it('"Send a new pin" replaces the pin: the server is told which one, and the page says the old one no longer works', async () => {
    let sent = 0;
    const calls = stubApi({
      'POST /api/v1/signup/registeremail': () => jsonResponse(200, { once: `vxu_once${++sent}` }),
      'POST /api/v1/signup/validatepin': () => new Response(null, { status: 204 }),
    });
    renderWizard();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a pin' }));
    await screen.findByText(/We sent a 6-digit pin to/);
    expect(screen.queryByRole('status')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send a new pin' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      'We sent a new pin to grace@example.com. The previous pin no longer works.',
    );
    expect(calls.filter((c) => c.path === '/api/v1/signup/registeremail').map((c) => c.body)).toEqual([
      { email: 'grace@example.com', beta: false },
      { email: 'grace@example.com', beta: false, previousOnce: 'vxu_once1' },
    ]);
    await user.click(screen.getAllByLabelText('Pin')[0]!);
    await user.keyboard(PIN);
    await screen.findByRole('heading', { name: 'Choose a password' });
    expect(calls.find((c) => c.path === '/api/v1/signup/validatepin')?.body).toEqual({
      email: 'grace@example.com',
      once: 'vxu_once2',
      pin: PIN,
    });
  });

  it('keeps Next disabled until the passwords agree, requires the names, and loses nothing going back', async () => {
    stubServer();
    renderWizard();
    const user = userEvent.setup();
    await confirmEmail(user);
    const next = screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement;
    await user.type(screen.getByLabelText('Password'), 'abc');
    await user.type(screen.getByLabelText('Confirm password'), 'abd');
    expect(screen.getByText('The two passwords do not match.')).toBeVisible();
    expect(next.disabled).toBe(true);
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'abc');
    expect(next.disabled).toBe(false);
    await user.click(next);
    expect(await screen.findByText('Your password should be greater than 4 characters long')).toBeVisible();
    await user.type(screen.getByLabelText('Password'), 'def');
    await user.type(screen.getByLabelText('Confirm password'), 'def');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await screen.findByRole('heading', { name: 'Your name' });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('First name is required')).toBeVisible();
    expect(screen.getByText('Last name is required')).toBeVisible();
    await user.type(screen.getByLabelText('First name'), 'Grace');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('abcdef');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Grace');
  });

  it('derives and checks the domain as it is typed, offers the free suggestions, and goes to the new organisation’s token sign-in', async () => {
    const calls = stubServer({ taken: ['acme'] });
    const { router } = renderWizard();
    const user = userEvent.setup();
    await confirmEmail(user);
    await user.type(screen.getByLabelText('Password'), 'secret!');
    await user.type(screen.getByLabelText('Confirm password'), 'secret!');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText('First name'), 'Grace');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    await screen.findByRole('heading', { name: 'Your organisation' });
    await user.click(screen.getByRole('button', { name: 'Create my organisation' }));
    expect(await screen.findByText('The Organisation name is required')).toBeVisible();
    await user.type(screen.getByLabelText('Organisation name'), 'ACME');
    expect((screen.getByLabelText('Domain') as HTMLInputElement).value).toBe('acme');
    expect(await screen.findByText('The domain name is unavailable')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'acme-company' }));
    expect(await screen.findByText('acme-company is available')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Create my organisation' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login/vxo_token'));
    expect(router.state.location.search).toBe('?domain=acme-company');
    expect(calls.find((c) => c.path === '/api/v1/signup/createaccount')?.body).toEqual({
      email: 'grace@example.com',
      once: 'vxu_once',
      pin: PIN,
      firstName: 'Grace',
      lastName: 'Hopper',
      organisationName: 'ACME',
      organisationDomain: 'acme-company',
      password: 'secret!',
      confirmPassword: 'secret!',
    });
    // The finished sign-up is forgotten: /activate now goes to sign-in.
    expect(sessionStorage.getItem('vexil.signup')).toBeNull();
  });

  it('says "Signup failed, no signup token sent" when no token comes back', async () => {
    sessionStorage.setItem(
      'vexil.signup',
      JSON.stringify({
        email: 'grace@example.com',
        once: 'vxu_once',
        pin: PIN,
        confirmed: true,
        firstName: 'Grace',
        lastName: 'Hopper',
        organisationName: 'Hopper Labs',
      }),
    );
    stubApi({
      'POST /api/v1/signup/checkdomain': () => jsonResponse(200, { available: true, suggestions: [] }),
      'POST /api/v1/signup/createaccount': () => jsonResponse(200, {}),
    });
    renderWizard();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'secret!');
    await user.type(screen.getByLabelText('Confirm password'), 'secret!');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: 'Create my organisation' }));
    expect(await screen.findByText('Signup failed, no signup token sent')).toBeVisible();
  });

  it('/activate goes to sign-in unless a sign-up was confirmed in this tab', async () => {
    stubServer();
    const { router } = renderWizard('/activate');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('/activate resumes a confirmed sign-up at the password', async () => {
    sessionStorage.setItem(
      'vexil.signup',
      JSON.stringify({ email: 'grace@example.com', once: 'vxu_once', pin: PIN, confirmed: true }),
    );
    stubServer();
    renderWizard('/activate');
    expect(await screen.findByRole('heading', { name: 'Choose a password' })).toBeVisible();
  });
});
