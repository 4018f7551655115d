import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import type { SsoConnection, SsoConnectionInput } from '@vexil/core';
import { closeAllModals } from '../../../lib/modals';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from '../../../testing/test-utils';
import { SsoAdmin } from './sso-admin';

const PATH = '/api/v1/sso';
const REDIRECT_URI = 'http://localhost:8080/api/v1/sso/callback';

const stored: SsoConnection = {
  displayName: 'Okta',
  issuer: 'https://login.example.com',
  clientId: 'vexil-dashboard',
  hasClientSecret: true,
  allowedDomains: ['example.com'],
  defaultRole: 'ROLE_ORGANISATION_EDITOR',
  required: false,
  lastModifiedDate: '2026-03-03T16:05:00.000Z',
};

type Handler = Parameters<typeof stubApi>[0][string];

/** The SSO endpoints over one connection in memory; `put` replaces how a save is answered. */
function serveSso(options: { connection?: SsoConnection | null; put?: Handler } = {}) {
  let connection = options.connection ?? null;
  const calls = stubApi({
    [`GET ${PATH}`]: () => jsonResponse(200, { connection, redirectUri: REDIRECT_URI }),
    [`PUT ${PATH}`]:
      options.put ??
      (({ body }) => {
        const input = body as SsoConnectionInput;
        connection = {
          displayName: input.displayName,
          issuer: input.issuer,
          clientId: input.clientId,
          hasClientSecret:
            input.clientSecret === undefined
              ? (connection?.hasClientSecret ?? false)
              : input.clientSecret !== '',
          allowedDomains: input.allowedDomains,
          defaultRole: input.defaultRole,
          required: input.required,
          lastModifiedDate: '2026-03-04T10:00:00.000Z',
        };
        return jsonResponse(200, connection);
      }),
    [`DELETE ${PATH}`]: () => {
      connection = null;
      return new Response(null, { status: 204 });
    },
  });
  const puts = () => calls.filter((call) => call.method === 'PUT').map((call) => call.body);
  return { calls, puts };
}

function renderSso() {
  const queryClient = createTestQueryClient();
  render(
    <Providers queryClient={queryClient}>
      <ModalsProvider>
        <Notifications />
        <SsoAdmin />
      </ModalsProvider>
    </Providers>,
  );
  return { user: userEvent.setup() };
}

const form = () => screen.getByRole('form', { name: 'Single sign-on connection' });
/** The visible input labelled `name` (a select or tags input also labels its hidden value and list). */
const field = (name: RegExp) =>
  within(form())
    .getAllByLabelText(name)
    .find(
      (element): element is HTMLInputElement =>
        element instanceof HTMLInputElement && element.type !== 'hidden',
    )!;

async function fillNewConnection(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field(/^Display name/), 'Acme ID');
  await user.type(field(/^Issuer URL/), 'https://id.acme.test/realms/main');
  await user.type(field(/^Client ID/), 'vexil');
  await user.type(field(/^Client secret/), 's3cret-value');
  await user.type(field(/^Allowed e-mail domains/), 'Acme.test, @corp.acme.test{Enter}');
}

describe('Single sign-on tab', () => {
  afterEach(() => {
    notifications.clean();
    closeAllModals();
    vi.unstubAllGlobals();
  });

  it('explains single sign-on until it is set up, and opens the form on "Set up single sign-on"', async () => {
    serveSso();
    const { user } = renderSso();

    expect(screen.getByRole('heading', { name: 'Single sign-on' })).toBeVisible();
    expect(await screen.findByText('Single sign-on is not set up.')).toBeVisible();
    expect(screen.queryByRole('form')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Set up single sign-on' }));
    expect(document.activeElement).toBe(field(/^Display name/));
    expect(field(/^Redirect URI/).value).toBe(REDIRECT_URI);
    expect(within(form()).getByRole('button', { name: 'Copy redirect URI' })).toBeVisible();
    // The default role is read-only, named as the Team tab names it; single sign-on is not required.
    expect(field(/^Default role/).value).toBe('Read-only user');
    expect(field(/^Require single sign-on for members/).checked).toBe(false);
    expect(screen.getByText(/Organisation admins can still use their password/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Remove single sign-on' })).toBeNull();

    await user.click(within(form()).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Single sign-on is not set up.')).toBeVisible();
  });

  it('says what is missing or wrong before saving, and sends nothing', async () => {
    const { puts } = serveSso();
    const { user } = renderSso();
    await user.click(await screen.findByRole('button', { name: 'Set up single sign-on' }));

    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeVisible();
    expect(screen.getByText('Issuer URL is required')).toBeVisible();
    expect(screen.getByText('Client ID is required')).toBeVisible();
    expect(screen.getByText('Allow at least one e-mail domain.')).toBeVisible();

    await user.type(field(/^Issuer URL/), 'login.example.com');
    await user.type(field(/^Allowed e-mail domains/), 'not_a_domain{Enter}');
    await user.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Must be a valid http(s) URL.')).toBeVisible();
    expect(screen.getByText('not_a_domain: Must be a domain such as example.com.')).toBeVisible();
    expect(puts()).toEqual([]);
  });

  it('saves a new connection with its secret, domains, role and requirement, then says a secret is stored', async () => {
    const { puts } = serveSso();
    const { user } = renderSso();
    await user.click(await screen.findByRole('button', { name: 'Set up single sign-on' }));
    expect(screen.getByText('Leave empty for a public client that signs in with PKCE only.')).toBeVisible();

    await fillNewConnection(user);
    await user.click(field(/^Default role/));
    await user.click(await screen.findByRole('option', { name: 'Production editor' }));
    await user.click(field(/^Require single sign-on for members/));
    await user.click(within(form()).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Single sign-on saved.')).toBeVisible();
    expect(puts()).toEqual([
      {
        displayName: 'Acme ID',
        issuer: 'https://id.acme.test/realms/main',
        clientId: 'vexil',
        clientSecret: 's3cret-value',
        allowedDomains: ['acme.test', 'corp.acme.test'],
        defaultRole: 'ROLE_ORGANISATION_PROD_EDITOR',
        required: true,
      },
    ]);
    // The secret is never shown again: the field is empty and says one is stored.
    await waitFor(() => expect(field(/^Client secret/).value).toBe(''));
    expect(screen.getByText('A secret is stored; leave empty to keep it.')).toBeVisible();
    expect(screen.getByText('On, required')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Remove single sign-on' })).toBeVisible();
  });

  it('keeps a stored secret when the field is left empty, replaces it when typed, and clears it on request', async () => {
    const { puts } = serveSso({ connection: stored });
    const { user } = renderSso();

    expect((await screen.findByLabelText(/^Display name/)).getAttribute('value')).toBe('Okta');
    expect(field(/^Default role/).value).toBe('Non-Production editor');
    expect(screen.getByText('A secret is stored; leave empty to keep it.')).toBeVisible();
    expect(screen.getByText('On')).toBeVisible();

    const save = () => user.click(within(form()).getByRole('button', { name: 'Save' }));
    await save();
    await screen.findByText('Single sign-on saved.');
    expect(puts()[0]).not.toHaveProperty('clientSecret');
    expect(puts()[0]).toMatchObject({ displayName: 'Okta', allowedDomains: ['example.com'] });

    await user.type(field(/^Client secret/), 'rotated');
    await save();
    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]).toMatchObject({ clientSecret: 'rotated' });

    await user.click(field(/^Remove the stored secret/));
    expect(field(/^Client secret/).disabled).toBe(true);
    await save();
    await waitFor(() => expect(puts()).toHaveLength(3));
    expect(puts()[2]).toMatchObject({ clientSecret: '' });
    expect(
      await screen.findByText('Leave empty for a public client that signs in with PKCE only.'),
    ).toBeVisible();
  });

  it('shows the server’s refusal in place and keeps everything typed', async () => {
    serveSso({
      put: () =>
        jsonResponse(400, {
          title: 'The issuer’s discovery document could not be read.',
          detail: 'https://id.acme.test/realms/main/.well-known/openid-configuration answered 404.',
          errors: [{ field: 'issuer', message: 'No OpenID Connect provider answers at this address.' }],
        }),
    });
    const { user } = renderSso();
    await user.click(await screen.findByRole('button', { name: 'Set up single sign-on' }));
    await fillNewConnection(user);
    await user.click(within(form()).getByRole('button', { name: 'Save' }));

    const alert = await within(form()).findByRole('alert');
    expect(alert.textContent).toContain('The issuer’s discovery document could not be read.');
    expect(alert.textContent).toContain('answered 404.');
    expect(screen.getByText('No OpenID Connect provider answers at this address.')).toBeVisible();
    // The field to correct takes the focus.
    expect(document.activeElement).toBe(field(/^Issuer URL/));
    expect(field(/^Display name/).value).toBe('Acme ID');
    expect(field(/^Issuer URL/).value).toBe('https://id.acme.test/realms/main');
    expect(field(/^Client secret/).value).toBe('s3cret-value');
    expect(screen.getByText('acme.test')).toBeVisible();
    expect(screen.queryByText('Single sign-on saved.')).toBeNull();
  });

  it('removes the connection only once confirmed', async () => {
    const { calls } = serveSso({ connection: stored });
    const { user } = renderSso();
    const deletes = () => calls.filter((call) => call.method === 'DELETE');

    await user.click(await screen.findByRole('button', { name: 'Remove single sign-on' }));
    let dialog = await screen.findByRole('dialog', { name: 'Remove single sign-on' });
    expect(dialog.textContent).toContain('Remove the connection to Okta?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(deletes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Remove single sign-on' }));
    dialog = await screen.findByRole('dialog', { name: 'Remove single sign-on' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Single sign-on removed.')).toBeVisible();
    expect(deletes()).toHaveLength(1);
    expect(screen.getByText('Single sign-on is not set up.')).toBeVisible();
  });

  it('says when the settings cannot be loaded, with Retry', async () => {
    let fail = true;
    stubApi({
      [`GET ${PATH}`]: () =>
        fail
          ? jsonResponse(500, { title: 'Something went wrong on our side.' })
          : jsonResponse(200, { connection: null, redirectUri: REDIRECT_URI }),
    });
    const { user } = renderSso();
    const alert = (
      await screen.findByText('We could not load the single sign-on settings.')
    ).closest<HTMLElement>('[role="alert"]')!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Single sign-on is not set up.')).toBeVisible();
  });
});
