import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderRoutes, stubApi } from '../../../testing/test-utils';
import { InvitedSignupPage } from './invited-signup-page';

const INVITEE = {
  firstName: 'Ada',
  lastName: '',
  email: 'ada@example.com',
  organisationName: 'Acme',
  organisationDomain: 'acme',
  alreadyActivated: false,
  seatAvailable: true,
};
const NO_SEAT_DETAIL =
  "Acme's plan has no seat left for another member. Ask an organisation admin of Acme to add seats or free one, then open this link again: it works until it expires.";

function renderPage() {
  return renderRoutes(
    [
      { path: 'invited/:activationKey', element: <InvitedSignupPage /> },
      { path: '/', element: <p>Home page</p> },
      { path: 'login', element: <p>Sign-in page</p> },
      { path: ':organisation/login', element: <p>The organisation’s sign-in page</p> },
    ],
    '/invited/vxi_key',
  );
}

async function fillPasswords(password: string, confirmation = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Password', { exact: true }), password);
  await user.type(screen.getByLabelText('Confirm password', { exact: true }), confirmation);
  return user;
}

describe('Invited sign-up (/invited/{activationKey})', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Loading, then the form with what the invitation says', async () => {
    stubApi({ 'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE) });
    renderPage();
    expect(screen.getByText('Loading')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Join Acme' })).toBeVisible();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('ada@example.com');
    expect((screen.getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText('First name') as HTMLInputElement).value).toBe('Ada');
  });

  it('says "We cannot find you!" for a link the server does not know', async () => {
    stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(404, { title: 'We cannot find you!' }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'We cannot find you!' })).toBeVisible();
  });

  it('says the account is already activated, with a way to that organisation’s sign-in', async () => {
    stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, { ...INVITEE, alreadyActivated: true }),
    });
    const { router } = renderPage();
    expect(
      await screen.findByRole('heading', { name: 'It looks like you have already activated your account!' }),
    ).toBeVisible();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/acme/login'));
    expect(screen.getByText('The organisation’s sign-in page')).toBeVisible();
  });

  it('requires both names, and keeps Activate disabled until the passwords match', async () => {
    const calls = stubApi({ 'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE) });
    renderPage();
    await screen.findByRole('heading', { name: 'Join Acme' });
    const user = await fillPasswords('secret', 'secreT');
    const submit = screen.getByRole('button', { name: 'Activate my account' });
    expect(screen.getByText('The two passwords do not match.')).toBeVisible();
    expect(submit).toHaveProperty('disabled', true);
    await user.clear(screen.getByLabelText('Confirm password', { exact: true }));
    await user.type(screen.getByLabelText('Confirm password', { exact: true }), 'secret');
    await user.clear(screen.getByLabelText('First name'));
    await user.click(submit);
    expect(await screen.findByText('First name is required')).toBeVisible();
    expect(screen.getByText('Last name is required')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows the password strength and the length rule', async () => {
    stubApi({ 'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE) });
    renderPage();
    await screen.findByRole('heading', { name: 'Join Acme' });
    const user = await fillPasswords('abc');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    expect(screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuetext')).toBe(
      'Very weak',
    );
    await user.click(screen.getByRole('button', { name: 'Activate my account' }));
    expect(await screen.findByText('Your password should be greater than 4 characters long')).toBeVisible();
  });

  it('activates the account and goes home signed in', async () => {
    const calls = stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE),
      'POST /api/v1/signup/invitee/': () => jsonResponse(200, { id_token: 'vxs_t', domain: 'acme' }),
    });
    const { router } = renderPage();
    await screen.findByRole('heading', { name: 'Join Acme' });
    const user = await fillPasswords('pa55word');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.click(screen.getByRole('button', { name: 'Activate my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      activationKey: 'vxi_key',
      firstName: 'Ada',
      lastName: 'Lovelace',
      password: 'pa55word',
    });
    expect(document.cookie).toContain('subdomain=acme');
  });

  it('turns into "already activated" when the link was used meanwhile', async () => {
    stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE),
      'POST /api/v1/signup/invitee/': () =>
        jsonResponse(409, { title: 'It looks like you have already activated your account!' }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Join Acme' });
    const user = await fillPasswords('pa55word');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.click(screen.getByRole('button', { name: 'Activate my account' }));
    expect(
      await screen.findByRole('heading', { name: 'It looks like you have already activated your account!' }),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/acme/login');
  });

  it('says why the invitation cannot be accepted while the plan has no seat left, instead of the form', async () => {
    stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, { ...INVITEE, seatAvailable: false }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'There is no seat left for you yet' })).toBeVisible();
    expect(screen.getByText(NO_SEAT_DETAIL)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Activate my account' })).toBeNull();
  });

  it('turns into the no-seat page when the seats ran out while the form was open', async () => {
    stubApi({
      'GET /api/v1/signup/invitee/vxi_key': () => jsonResponse(200, INVITEE),
      'POST /api/v1/signup/invitee/': () =>
        jsonResponse(400, {
          title: 'There is no seat left for you yet',
          detail: NO_SEAT_DETAIL,
          code: 'limit_reached',
        }),
    });
    renderPage();
    await screen.findByRole('heading', { name: 'Join Acme' });
    const user = await fillPasswords('pa55word');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.click(screen.getByRole('button', { name: 'Activate my account' }));
    expect(await screen.findByRole('heading', { name: 'There is no seat left for you yet' })).toBeVisible();
    expect(screen.getByText(NO_SEAT_DETAIL)).toBeVisible();
  });
});
