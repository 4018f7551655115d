import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { allFlagsOn, initialPayload, jsonResponse, projectFixture } from '../../../testing/test-utils';
import { IntegrationsAdmin } from './integrations-admin';
import {
  INTEGRATIONS_PATH,
  SLACK_AUTHORISE_URL,
  jiraFixture,
  renderScreen,
  resetOverlays,
  serveIntegrations,
  slackFixture,
} from '../../../testing/integrations-test-server';

const route = { path: 'admin/integrations', element: <IntegrationsAdmin /> };

function renderTab(path = '/admin/integrations', session = initialPayload()) {
  const rendered = renderScreen(route, path, session);
  return { ...rendered, user: userEvent.setup() };
}

const installedList = () => screen.findByRole('list', { name: 'Installed integrations' });

describe('Integrations tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('offers Slack and Jira, and lists the installed ones with who added them, where they post and their filters', async () => {
    const slack = slackFixture('#releases', {
      projectKeys: ['web'],
      environmentKeys: ['production'],
      events: ['feature.toggled', 'feature.created'],
    });
    serveIntegrations({ integrations: [slack, jiraFixture('https://acme.atlassian.net')] });
    renderTab();

    expect(screen.getByRole('heading', { name: 'Integrations' })).toBeVisible();
    const available = screen.getByRole('region', { name: 'Available' });
    await waitFor(() =>
      expect(
        (within(available).getByRole('button', { name: 'Add Slack' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    // Jira is connected already (once per organisation): its card leads to its settings.
    const jiraOffer = within(within(available).getByRole('listitem', { name: 'Jira' }));
    expect(jiraOffer.getByText('Connected')).toBeVisible();
    expect(jiraOffer.queryByRole('link', { name: 'Add Jira' })).toBeNull();

    const list = await installedList();
    const slackCard = within(within(list).getByRole('listitem', { name: 'Slack #releases' }));
    expect(slackCard.getByText('Demo Admin, 3rd Mar 2026, 4:05pm')).toBeVisible();
    expect(slackCard.getByText('Acme')).toBeVisible();
    expect(slackCard.getByText('Web shop')).toBeVisible();
    expect(slackCard.getByText('production')).toBeVisible();
    expect(slackCard.getByText('Feature turned on or off, Feature created')).toBeVisible();

    const jiraCard = within(within(list).getByRole('listitem', { name: 'Jira https://acme.atlassian.net' }));
    expect(jiraCard.getByText('Ada Lovelace, 3rd Mar 2026, 4:05pm')).toBeVisible();
    expect(
      jiraCard.getByRole('link', { name: 'Configure Jira https://acme.atlassian.net' }).getAttribute('href'),
    ).toMatch(/^\/admin\/integrations\/jira\/[0-9a-f-]+$/);
  });

  it('offers Jira’s Add link while no Jira is connected', async () => {
    serveIntegrations({ integrations: [slackFixture()] });
    renderTab();
    expect((await screen.findByRole('link', { name: 'Add Jira' })).getAttribute('href')).toBe(
      '/admin/integrations/jira/connect',
    );
  });

  it('keeps Slack’s Add disabled, and says why, when the server has no Slack app', async () => {
    const { calls } = serveIntegrations({
      handlers: {
        [`GET ${INTEGRATIONS_PATH}/available`]: () =>
          jsonResponse(200, { slack: { configured: false }, jira: { enabled: true, connectedId: null } }),
      },
    });
    renderTab();
    expect(await screen.findByLabelText('Slack is not configured on this server.')).toBeVisible();
    const add = screen.getByRole('button', { name: 'Add Slack' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    expect(calls.some((c) => c.path.endsWith('/slack/install'))).toBe(false);
  });

  it('shows "All" for filters left empty', async () => {
    serveIntegrations({ integrations: [slackFixture('#flags')] });
    renderTab();
    const card = within(within(await installedList()).getByRole('listitem', { name: 'Slack #flags' }));
    expect(card.getAllByText('All')).toHaveLength(3);
  });

  it('offers Jira only with flag jira-integration', async () => {
    serveIntegrations({ integrations: [jiraFixture()] });
    renderTab('/admin/integrations', initialPayload({ flags: { ...allFlagsOn, 'jira-integration': false } }));
    const list = await installedList();
    expect(screen.queryByRole('link', { name: 'Add Jira' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add Slack' })).toBeVisible();
    // An installed connection still shows, and can be removed, but its settings page is switched off.
    expect(within(list).queryByRole('link', { name: /^Configure/ })).toBeNull();
    expect(within(list).getByRole('button', { name: /^Remove Jira/ })).toBeVisible();
  });

  it('says there are none installed yet', async () => {
    serveIntegrations();
    renderTab();
    expect(await screen.findByText('No integrations are installed yet.')).toBeVisible();
  });

  it('shows skeletons while loading and Retry when loading fails', async () => {
    let fail = true;
    serveIntegrations({
      handlers: {
        [`GET ${INTEGRATIONS_PATH}`]: () =>
          fail ? jsonResponse(500, { title: 'Something went wrong on our side.' }) : jsonResponse(200, []),
      },
    });
    const { user } = renderTab();
    expect(screen.getByRole('status', { name: 'Loading integrations' })).toBeVisible();
    const alert = (await screen.findByText('We could not load the integrations.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No integrations are installed yet.')).toBeVisible();
  });

  it('tells others than organisation admins that only admins manage integrations, and asks nothing', async () => {
    const { calls } = serveIntegrations({ integrations: [slackFixture()] });
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    renderTab('/admin/integrations', payload);
    expect(await screen.findByText('Only organisation admins may manage integrations.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add Slack' })).toBeNull();
    expect(calls.filter((c) => c.path.startsWith(INTEGRATIONS_PATH))).toEqual([]);
  });

  it('sends the browser to Slack’s authorisation page on Add', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, href: 'http://localhost/admin/integrations' });
    serveIntegrations();
    const { user } = renderTab();
    await user.click(screen.getByRole('button', { name: 'Add Slack' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(SLACK_AUTHORISE_URL));
  });

  it('says why Slack cannot be added when the server refuses', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, href: 'http://localhost/admin/integrations' });
    serveIntegrations({
      handlers: {
        [`GET ${INTEGRATIONS_PATH}/slack/install`]: () =>
          jsonResponse(400, { title: 'Slack is not configured on this server.' }),
      },
    });
    const { user } = renderTab();
    await user.click(screen.getByRole('button', { name: 'Add Slack' }));
    expect(
      await screen.findByText('We could not start adding Slack: Slack is not configured on this server.'),
    ).toBeVisible();
    expect(assign).not.toHaveBeenCalled();
  });

  it('says Slack was added when its callback comes back, and forgets it once dismissed', async () => {
    serveIntegrations({ integrations: [slackFixture('#releases')] });
    const { user, router } = renderTab('/admin/integrations?installed=slack');
    const status = (await screen.findByText('Slack added')).closest<HTMLElement>('[role="status"]')!;
    expect(status.textContent).toContain('Slack is connected: Vexil posts every change to its channel');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText('Slack added')).toBeNull());
    expect(router.state.location.search).toBe('');
  });

  it('says why Slack was not added when its callback reports an error', async () => {
    serveIntegrations();
    const { unmount } = renderTab('/admin/integrations?error=denied');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Slack was not added: the authorisation was cancelled.',
    );
    unmount();
    // A reason the page does not know is not shown as given: the address is anyone's to write.
    renderTab('/admin/integrations?error=%3Cb%3EYour+account+is+locked%3C%2Fb%3E');
    expect((await screen.findByRole('alert')).textContent).toBe('Slack could not be added. Try again.');
  });

  it('removes an integration after a confirmation', async () => {
    const slack = slackFixture('#releases');
    const { calls } = serveIntegrations({ integrations: [slack, jiraFixture()] });
    const { user } = renderTab();
    const list = await installedList();

    await user.click(within(list).getByRole('button', { name: 'Remove Slack #releases' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Slack' });
    expect(dialog.textContent).toContain(
      'Remove the Slack integration posting to #releases? Vexil stops posting there at once.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));

    expect(await screen.findByText('Integration removed.')).toBeVisible();
    await waitFor(() => expect(within(list).queryByRole('listitem', { name: 'Slack #releases' })).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `${INTEGRATIONS_PATH}/${slack.id}`,
    ]);
  });

  it('keeps the integration when the confirmation is cancelled, and says why a removal failed', async () => {
    const slack = slackFixture('#releases');
    const { calls } = serveIntegrations({
      integrations: [slack],
      handlers: {
        [`DELETE ${INTEGRATIONS_PATH}/${slack.id}`]: () =>
          jsonResponse(500, { title: 'Something went wrong on our side.' }),
      },
    });
    const { user } = renderTab();
    const list = await installedList();

    await user.click(within(list).getByRole('button', { name: 'Remove Slack #releases' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Slack' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(within(list).getByRole('button', { name: 'Remove Slack #releases' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove Slack' })).getByRole('button', {
        name: 'Remove',
      }),
    );
    expect(
      await screen.findByText(
        'There was an error removing the integration: Something went wrong on our side.',
      ),
    ).toBeVisible();
    expect(within(list).getByRole('listitem', { name: 'Slack #releases' })).toBeVisible();
  });

  it('configures which projects, environments and events Slack is told of', async () => {
    const other = projectFixture('app', 'Mobile app', [
      { key: 'production', name: 'Production', production: true },
      { key: 'beta', name: 'Beta' },
    ]);
    const session = initialPayload();
    session.projects.push(other);
    const slack = slackFixture('#releases');
    const { calls } = serveIntegrations({ integrations: [slack] });
    const { user } = renderTab('/admin/integrations', session);

    await user.click(
      within(await installedList()).getByRole('button', { name: 'Configure Slack #releases' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Slack #releases' });
    const form = within(dialog);
    // Empty lists read "All".
    expect(form.getAllByPlaceholderText('All')).toHaveLength(3);

    await user.click(form.getByRole('combobox', { name: 'Projects' }));
    await user.click(await screen.findByRole('option', { name: 'Mobile app' }));
    // Only the chosen project's environments are offered.
    await user.click(form.getByRole('combobox', { name: 'Environments' }));
    expect(screen.getByRole('option', { name: 'Beta' })).toBeVisible();
    expect(screen.queryByRole('option', { name: 'Development' })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Production' }));
    await user.click(form.getByRole('combobox', { name: 'Events' }));
    await user.click(await screen.findByRole('option', { name: 'Feature turned on or off' }));
    await user.click(form.getByRole('button', { name: 'Save filters' }));

    expect(await screen.findByText('Integration filters saved.')).toBeVisible();
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: `${INTEGRATIONS_PATH}/${slack.id}/filters`,
      body: { projectKeys: ['app'], environmentKeys: ['production'], events: ['feature.toggled'] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const card = within(within(await installedList()).getByRole('listitem', { name: 'Slack #releases' }));
    expect(await card.findByText('Mobile app')).toBeVisible();
    expect(card.getByText('Feature turned on or off')).toBeVisible();
  });

  it('keeps the filters form open with the server’s reason when saving fails', async () => {
    const slack = slackFixture('#releases');
    serveIntegrations({
      integrations: [slack],
      handlers: {
        [`PUT ${INTEGRATIONS_PATH}/${slack.id}/filters`]: () =>
          jsonResponse(400, {
            title: 'Unknown project: gone.',
            errors: [{ field: 'projectKeys', message: 'Unknown project: gone.' }],
          }),
      },
    });
    const { user } = renderTab();
    await user.click(
      within(await installedList()).getByRole('button', { name: 'Configure Slack #releases' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Slack #releases' });
    await user.click(within(dialog).getByRole('button', { name: 'Save filters' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Unknown project: gone.');
    expect(screen.queryByText('Integration filters saved.')).toBeNull();
  });
});
