import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  trialSubscription,
  withSdkKeys,
} from '../../../testing/test-utils';
import { FREE_PLAN_LIMITS, LAST_ENVIRONMENT_MESSAGE, LAST_PROJECT_MESSAGE } from '@vexil/core';
import { resetOverlays, serveProjects, renderProjectAdmin } from '../../../testing/projects-test-server';

const web = projectFixture('web', 'Web shop', [
  { key: 'production', name: 'Production', production: true, url: 'https://shop.example.com' },
  { key: 'dev', name: 'Development', local: true },
]);
const mobile = projectFixture('ma', 'Mobile app', [{ key: 'production', name: 'Production' }]);

const pathOf = (router: ReturnType<typeof renderProjectAdmin>['router']) => router.state.location.pathname;

function rowOf(name: string): HTMLElement {
  const cell = screen.getByText(name, { selector: 'p' });
  const row = cell.closest('tr');
  if (!row) throw new Error(`No row for ${name}`);
  return row;
}

describe('Project admin', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it("shows the first project's name, key and environments", async () => {
    serveProjects({
      payload: initialPayload({ projects: [mobile, web] }),
      projects: [mobile, web].map(withSdkKeys),
    });
    renderProjectAdmin('/admin/projects');
    expect(await screen.findByRole('heading', { name: 'Mobile app' })).toBeVisible();
    expect(screen.getByLabelText('Project key ma')).toBeVisible();
  });

  it('lists environments with url or "(no url set)", a local icon and a production badge', async () => {
    serveProjects({ payload: initialPayload({ projects: [web] }), projects: [withSdkKeys(web)] });
    renderProjectAdmin('/admin/projects/web');
    await screen.findByRole('heading', { name: 'Web shop' });

    const production = rowOf('Production');
    expect(within(production).getByRole('link', { name: 'https://shop.example.com' })).toBeVisible();
    expect(within(production).getByText('Production', { selector: '.mantine-Badge-label' })).toBeVisible();
    expect(within(production).queryByLabelText('Local environment')).toBeNull();

    const development = rowOf('Development');
    expect(within(development).getByText('(no url set)')).toBeVisible();
    expect(within(development).getByRole('img', { name: 'Local environment' })).toBeVisible();
    expect(within(development).getByRole('button', { name: 'Api Keys of Development' })).toBeVisible();
    expect(within(development).getByRole('button', { name: 'Update Development' })).toBeVisible();
    expect(within(development).getByRole('button', { name: 'Delete Development' })).toBeVisible();
  });

  it('switches project through the dropdown', async () => {
    serveProjects({
      payload: initialPayload({ projects: [mobile, web] }),
      projects: [mobile, web].map(withSdkKeys),
    });
    const { router } = renderProjectAdmin('/admin/projects/ma');
    await screen.findByRole('heading', { name: 'Mobile app' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Project' }));
    await user.click(await screen.findByRole('option', { name: 'Web shop (web)' }));
    expect(await screen.findByRole('heading', { name: 'Web shop' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/projects/web');
  });

  it('shows Page not found for an unknown project', async () => {
    serveProjects();
    renderProjectAdmin('/admin/projects/nope');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
  });

  it('invites to set up a project when there is none', async () => {
    serveProjects({ payload: initialPayload({ projects: [] }), projects: [] });
    renderProjectAdmin('/admin/projects');
    expect(await screen.findByText("You have no projects. Let's set one up now.")).toBeVisible();
    expect(screen.getByRole('button', { name: 'New Project' })).toBeVisible();
  });

  it('tells a user who is not an organisation admin that only admins manage projects', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    const { calls } = serveProjects({ payload });
    renderProjectAdmin('/admin/projects');
    expect(await screen.findByText('Only organisation admins may manage projects.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'New Project' })).toBeNull();
    expect(calls.some((call) => call.path.startsWith('/api/v1/projects'))).toBe(false);
  });

  it('says when the projects could not be loaded', async () => {
    serveProjects({ handlers: { 'GET /api/v1/projects': () => jsonResponse(500, { title: 'Boom' }) } });
    renderProjectAdmin('/admin/projects');
    expect(await screen.findByText('We could not load the projects.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  describe('plan limits', () => {
    const free = { ...trialSubscription(0, false), limits: { ...FREE_PLAN_LIMITS } };

    it('disables New Project and New Environment at the limit, with an upgrade link', async () => {
      serveProjects({ payload: initialPayload({ subscription: free }) });
      renderProjectAdmin('/admin/projects');
      const newProject = await screen.findByRole('button', { name: 'New Project' });
      expect(newProject.hasAttribute('disabled')).toBe(true);
      expect(screen.getByText(/Only 1 project\(s\) allowed\./)).toBeVisible();
      expect(screen.getByRole('button', { name: 'New Environment' }).hasAttribute('disabled')).toBe(true);
      expect(screen.getByText(/Only 2 environment\(s\) allowed\./)).toBeVisible();
      const upgrade = screen.getAllByRole('link', { name: 'Upgrade your plan' });
      expect(upgrade.map((link) => link.getAttribute('href'))).toEqual(['/admin/billing', '/admin/billing']);
    });

    it('has no limits when the billing flag is off', async () => {
      const payload = initialPayload({ subscription: free });
      payload.flags = { ...payload.flags, billing: false };
      serveProjects({ payload });
      renderProjectAdmin('/admin/projects');
      const newProject = await screen.findByRole('button', { name: 'New Project' });
      expect(newProject.hasAttribute('disabled')).toBe(false);
      expect(screen.getByRole('button', { name: 'New Environment' }).hasAttribute('disabled')).toBe(false);
    });
  });

  describe('deleting', () => {
    it('confirms, then deletes an environment and says so', async () => {
      const environment = withSdkKeys(web).environments[1]!;
      const { calls, state } = serveProjects({
        payload: initialPayload({ projects: [web] }),
        projects: [withSdkKeys(web)],
        handlers: {
          [`DELETE /api/v1/environments/${environment.id}`]: () => {
            state.projects = state.projects.map((p) => ({
              ...p,
              environments: p.environments.filter((e) => e.id !== environment.id),
            }));
            return new Response(null, { status: 204 });
          },
        },
      });
      renderProjectAdmin('/admin/projects/web');
      await screen.findByRole('heading', { name: 'Web shop' });
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Delete Development' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Environment' });
      expect(within(dialog).getByText(/Delete the environment "Development"\?/)).toBeVisible();
      await user.click(within(dialog).getByRole('button', { name: 'Delete Environment' }));
      expect(await screen.findByText('Environment deleted.')).toBeVisible();
      await waitFor(() => expect(screen.queryByText('Development', { selector: 'p' })).toBeNull());
      expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
    });

    it('disables Delete of the last environment and says why on focus, without asking the server', async () => {
      const only = projectFixture('solo', 'Solo', [{ key: 'production', name: 'Production' }]);
      const { calls } = serveProjects({
        payload: initialPayload({ projects: [only, web] }),
        projects: [withSdkKeys(only), withSdkKeys(web)],
      });
      renderProjectAdmin('/admin/projects/solo');
      await screen.findByRole('heading', { name: 'Solo' });
      const remove = screen.getByRole('button', { name: 'Delete Production' });
      expect(remove.hasAttribute('disabled')).toBe(true);
      const reason = screen.getByLabelText(LAST_ENVIRONMENT_MESSAGE);
      expect(reason.contains(remove)).toBe(true);
      reason.focus();
      expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', LAST_ENVIRONMENT_MESSAGE);
      expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    });

    it('disables Delete Project for the last project, with the reason', async () => {
      serveProjects({ payload: initialPayload({ projects: [web] }), projects: [withSdkKeys(web)] });
      renderProjectAdmin('/admin/projects/web');
      await screen.findByRole('heading', { name: 'Web shop' });
      const remove = screen.getByRole('button', { name: 'Delete Project' });
      expect(remove.hasAttribute('disabled')).toBe(true);
      const reason = screen.getByLabelText(LAST_PROJECT_MESSAGE);
      reason.focus();
      expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', LAST_PROJECT_MESSAGE);
      // Environments of a project with several can still go.
      expect(screen.getByRole('button', { name: 'Delete Development' }).hasAttribute('disabled')).toBe(false);
    });

    it('deletes a project after an irreversible-action warning and shows the next one', async () => {
      const { state } = serveProjects({
        payload: initialPayload({ projects: [mobile, web] }),
        projects: [mobile, web].map(withSdkKeys),
        handlers: {
          'DELETE /api/v1/projects/ma': () => {
            state.projects = state.projects.filter((p) => p.key !== 'ma');
            return new Response(null, { status: 204 });
          },
        },
      });
      const { router } = renderProjectAdmin('/admin/projects/ma');
      await screen.findByRole('heading', { name: 'Mobile app' });
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Delete Project' }));
      const dialog = await screen.findByRole('dialog', { name: 'Delete Project' });
      expect(within(dialog).getByText(/cannot be undone/)).toBeVisible();
      const confirmButton = within(dialog).getByRole('button', { name: 'Delete Project' });
      const typed = within(dialog).getByRole('textbox', { name: 'Type the project key ma to confirm' });
      expect(confirmButton.hasAttribute('disabled')).toBe(true);
      await user.type(typed, 'MA');
      expect(confirmButton.hasAttribute('disabled')).toBe(true);
      await user.clear(typed);
      await user.type(typed, 'ma');
      expect(confirmButton.hasAttribute('disabled')).toBe(false);
      await user.click(confirmButton);
      expect(await screen.findByText('Project deleted.')).toBeVisible();
      expect(await screen.findByRole('heading', { name: 'Web shop' })).toBeVisible();
      expect(pathOf(router)).toBe('/admin/projects');
    });
  });
});
