import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { useParams } from 'react-router';
import { initialPayload, jsonResponse, renderRoute } from '../../../testing/test-utils';
import { IntegrationsAdmin } from './integrations-admin';
import {
  INTEGRATIONS_PATH,
  JIRA_CONNECT_TOKEN,
  jiraConnectionFixture,
  jiraFixture,
  resetOverlays,
  serveIntegrations,
} from '../../../testing/integrations-test-server';
import { JiraConnectPage } from './jira-connect-page';
import { JiraIntegrationPage } from './jira-integration-page';

function JiraRoute() {
  const { jiraIntegrationId = '' } = useParams();
  return jiraIntegrationId === 'connect' ? (
    <JiraConnectPage />
  ) : (
    <JiraIntegrationPage id={jiraIntegrationId} />
  );
}

const routes: RouteObject[] = [
  { path: 'admin/integrations', element: <IntegrationsAdmin /> },
  { path: 'admin/integrations/jira/:jiraIntegrationId', element: <JiraRoute /> },
];

function renderJira(path: string) {
  return { ...renderRoute(routes, path, { session: initialPayload() }), user: userEvent.setup() };
}

const connectForm = () => screen.findByRole('form', { name: 'Jira connection' });

async function fill(user: ReturnType<typeof userEvent.setup>, fields: Record<string, string>) {
  const form = within(await connectForm());
  for (const [label, value] of Object.entries(fields)) {
    const input = form.getByLabelText(label, { exact: false });
    await user.clear(input);
    if (value) await user.type(input, value);
  }
}

describe('Connect Jira page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('asks for a connect token when the address has none, connects, and opens the connection', async () => {
    const { calls } = serveIntegrations();
    const { user, router } = renderJira('/admin/integrations/jira/connect');
    expect(screen.getByRole('heading', { name: 'Connect Jira' })).toBeVisible();
    await waitFor(() => expect(router.state.location.search).toBe(`?token=${JIRA_CONNECT_TOKEN}`));

    await fill(user, {
      'Base URL': 'https://acme.atlassian.net',
      'E-mail': 'vexil@acme.example',
      'API token': 'atl-secret-token',
    });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));

    expect(await screen.findByText('Jira connected.')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: `${INTEGRATIONS_PATH}/jira/connect`,
      body: {
        token: JIRA_CONNECT_TOKEN,
        baseUrl: 'https://acme.atlassian.net',
        email: 'vexil@acme.example',
        apiToken: 'atl-secret-token',
      },
    });
    await waitFor(() =>
      expect(router.state.location.pathname).toMatch(/^\/admin\/integrations\/jira\/[0-9a-f-]{36}$/),
    );
    expect(await screen.findByRole('heading', { name: 'Jira' })).toBeVisible();
    // The session is read again: it says Jira is connected, so feature pages ask it for titles.
    await waitFor(() => expect(calls.some((c) => c.path === '/api/v1/initial')).toBe(true));
    // The token is never shown back.
    expect(document.body.textContent).not.toContain('atl-secret-token');
    expect(screen.getByText('A token is stored; leave empty to keep it.')).toBeVisible();
  });

  it('uses the token the address carries', async () => {
    const { calls } = serveIntegrations();
    const { user } = renderJira('/admin/integrations/jira/connect?token=vxj_given');
    await fill(user, {
      'Base URL': 'https://acme.atlassian.net',
      'E-mail': 'a@acme.example',
      'API token': 't',
    });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    await screen.findByText('Jira connected.');
    expect(calls.some((c) => c.path.endsWith('/connect-token'))).toBe(false);
    expect((calls.find((c) => c.method === 'POST')!.body as { token: string }).token).toBe('vxj_given');
  });

  it('checks every field before sending', async () => {
    const { calls } = serveIntegrations();
    const { user } = renderJira('/admin/integrations/jira/connect?token=vxj_given');
    await fill(user, { 'Base URL': 'not a url', 'E-mail': 'nobody' });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    expect(await screen.findByText('Must be a valid http(s) URL.')).toBeVisible();
    expect(screen.getByText('Email must be valid')).toBeVisible();

    await fill(user, { 'Base URL': 'https://acme.atlassian.net', 'E-mail': 'a@acme.example' });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    expect(await screen.findByText('API token is required')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('shows why Jira refused the credentials, keeping what was typed', async () => {
    serveIntegrations({
      handlers: {
        [`POST ${INTEGRATIONS_PATH}/jira/connect`]: () =>
          jsonResponse(400, {
            title: 'Jira refused this e-mail and API token.',
            errors: [{ field: 'apiToken', message: 'Jira refused this e-mail and API token.' }],
          }),
      },
    });
    const { user } = renderJira('/admin/integrations/jira/connect?token=vxj_given');
    await fill(user, {
      'Base URL': 'https://acme.atlassian.net',
      'E-mail': 'a@acme.example',
      'API token': 'wrong',
    });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    const form = within(await connectForm());
    // Said once, under the field it concerns; no alert above the form repeats it.
    const token = form.getByLabelText('API token', { exact: false });
    await waitFor(() => expect(token.getAttribute('aria-describedby') ?? '').toMatch(/error/));
    expect(form.getAllByText('Jira refused this e-mail and API token.')).toHaveLength(1);
    expect(form.queryByRole('alert')).toBeNull();
    expect((form.getByLabelText('Base URL', { exact: false }) as HTMLInputElement).value).toBe(
      'https://acme.atlassian.net',
    );
    expect(screen.queryByText('Jira connected.')).toBeNull();
  });

  it('offers a new link when the connect token has expired', async () => {
    let refuse = true;
    const { calls } = serveIntegrations({
      handlers: {
        [`POST ${INTEGRATIONS_PATH}/jira/connect`]: () =>
          refuse
            ? jsonResponse(400, {
                title: 'This link to connect Jira has expired or was already used.',
                errors: [
                  { field: 'token', message: 'This link to connect Jira has expired or was already used.' },
                ],
              })
            : jsonResponse(201, jiraConnectionFixture()),
      },
    });
    const { user, router } = renderJira('/admin/integrations/jira/connect?token=vxj_old');
    await fill(user, {
      'Base URL': 'https://acme.atlassian.net',
      'E-mail': 'a@acme.example',
      'API token': 't',
    });
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    expect(await screen.findByText('This connect link has expired or was already used.')).toBeVisible();
    // The page says it, with Get a new link; the form does not say it again.
    expect(screen.queryByText(/This link to connect Jira has expired/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Get a new link' }));
    await waitFor(() => expect(router.state.location.search).toBe(`?token=${JIRA_CONNECT_TOKEN}`));
    await waitFor(() =>
      expect(screen.queryByText('This connect link has expired or was already used.')).toBeNull(),
    );
    refuse = false;
    // What was typed stays; the new token goes with it.
    await user.click(screen.getByRole('button', { name: 'Connect Jira' }));
    expect(await screen.findByText('Jira connected.')).toBeVisible();
    const posts = calls.filter((c) => c.method === 'POST').map((c) => (c.body as { token: string }).token);
    expect(posts).toEqual(['vxj_old', JIRA_CONNECT_TOKEN]);
  });

  it('says why it cannot start, with Retry, when no token can be had', async () => {
    serveIntegrations({
      handlers: {
        [`GET ${INTEGRATIONS_PATH}/jira/connect-token`]: () =>
          jsonResponse(404, { title: 'The Jira integration is turned off.' }),
      },
    });
    renderJira('/admin/integrations/jira/connect');
    const alert = (await screen.findByText('We could not start connecting Jira.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('The Jira integration is turned off.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});

describe('Jira connection page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the connection, keeps the stored API token when left empty, and replaces it when typed', async () => {
    const connection = jiraConnectionFixture();
    const { calls } = serveIntegrations({
      integrations: [jiraFixture(connection.baseUrl, connection.id)],
      jira: [connection],
    });
    const { user } = renderJira(`/admin/integrations/jira/${connection.id}`);
    const form = within(await connectForm());
    expect(screen.getByText(/Added by Ada Lovelace on 3rd Mar 2026, 4:05pm/)).toBeVisible();
    expect((form.getByLabelText('Base URL', { exact: false }) as HTMLInputElement).value).toBe(
      connection.baseUrl,
    );
    expect((form.getByLabelText('E-mail', { exact: false }) as HTMLInputElement).value).toBe(
      connection.email,
    );
    expect((form.getByLabelText('API token', { exact: false }) as HTMLInputElement).value).toBe('');
    expect(form.getByText('A token is stored; leave empty to keep it.')).toBeVisible();

    await fill(user, { 'E-mail': 'bot@acme.example' });
    await user.click(form.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Jira connection saved.')).toBeVisible();
    await fill(user, { 'API token': 'new-token' });
    await user.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([
      { baseUrl: connection.baseUrl, email: 'bot@acme.example' },
      { baseUrl: connection.baseUrl, email: 'bot@acme.example', apiToken: 'new-token' },
    ]);
    await waitFor(() =>
      expect((form.getByLabelText('API token', { exact: false }) as HTMLInputElement).value).toBe(''),
    );
  });

  it('removes the connection after a confirmation and goes back to the Integrations tab', async () => {
    const connection = jiraConnectionFixture();
    const { calls } = serveIntegrations({
      integrations: [jiraFixture(connection.baseUrl, connection.id)],
      jira: [connection],
    });
    const { user, router } = renderJira(`/admin/integrations/jira/${connection.id}`);
    await connectForm();
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Jira' });
    expect(dialog.textContent).toContain(`Remove the Jira connection to ${connection.baseUrl}?`);
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Integration removed.')).toBeVisible();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/integrations'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `${INTEGRATIONS_PATH}/${connection.id}`,
    ]);
    // The session is read again: Jira is no longer connected, and feature pages stop asking it.
    await waitFor(() => expect(calls.some((c) => c.path === '/api/v1/initial')).toBe(true));
  });

  it('is Page not found for an unknown connection', async () => {
    serveIntegrations();
    renderJira('/admin/integrations/jira/00000000-0000-4000-8000-000000000999');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});
