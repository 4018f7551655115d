import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InitialPayload } from '@vexil/core';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  environmentRoute,
  renderRoute,
  stubApi,
  findOpenMenu,
} from '../../testing/test-utils';
import { rememberEnvironment } from '../../lib/current-environment';
import { EnvironmentFeaturesPage } from '../routes/environment-features-page';
import { HomePage } from '../routes/home-page';

/** The home page and an environment's feature list, inside the app's shell. */
const shellRoutes: RouteObject[] = [
  { path: '/', element: <HomePage /> },
  environmentRoute([{ path: 'features', element: <EnvironmentFeaturesPage /> }]),
];

const twoProjects = () =>
  initialPayload({
    projects: [
      projectFixture('web', 'Web shop', [
        { key: 'production', name: 'Production', production: true, color: '#e03131' },
        { key: 'dev', name: 'Development', local: true, color: '#2f9e44' },
      ]),
      projectFixture('app', 'Mobile app', [{ key: 'staging', name: 'Staging' }]),
    ],
  });

function render(path: string, payload: InitialPayload = twoProjects()) {
  stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload) });
  return renderRoute(shellRoutes, path, { shell: true });
}

const environmentButton = () => screen.findByRole('button', { name: /^Environment: / });

async function openMenu() {
  await userEvent.setup().click(await environmentButton());
  return findOpenMenu();
}

const mainNav = () => screen.getByRole('navigation', { name: 'Main' });

describe('environment dropdown', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('shows a non-production environment of the first project when none was opened yet', async () => {
    render('/');
    expect((await environmentButton()).getAttribute('aria-label')).toBe(
      'Environment: Development (Web shop)',
    );
  });

  it('shows the environment of the address', async () => {
    render('/projects/app/environments/staging/features');
    expect((await environmentButton()).getAttribute('aria-label')).toBe('Environment: Staging (Mobile app)');
  });

  it('keeps the environment last opened on Home, where Features leads back to it', async () => {
    const user = userEvent.setup();
    const { router } = render('/projects/app/environments/staging/features');
    await screen.findByText('Staging environment of Mobile app');
    await user.click(within(mainNav()).getByRole('link', { name: 'Home' }));
    await screen.findByRole('heading', { name: 'Home' });
    expect((await environmentButton()).getAttribute('aria-label')).toBe('Environment: Staging (Mobile app)');
    await user.click(within(mainNav()).getByRole('link', { name: 'Features' }));
    expect(await screen.findByText('Staging environment of Mobile app')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/app/environments/staging/features');
  });

  it("restores the user's environment after a reload or a new sign-in, but not another user's", async () => {
    const payload = twoProjects();
    const staging = payload.projects[1]!;
    rememberEnvironment(
      { organisationId: payload.organisation.id, userId: payload.principalUser.id },
      staging.id,
      staging.environments[0]!.id,
    );
    render('/', payload);
    expect((await environmentButton()).getAttribute('aria-label')).toBe('Environment: Staging (Mobile app)');

    cleanup();
    vi.unstubAllGlobals();
    const someoneElse = {
      ...payload,
      principalUser: { ...payload.principalUser, id: '00000000-0000-4000-8000-000000000999' },
    };
    render('/', someoneElse);
    expect((await environmentButton()).getAttribute('aria-label')).toBe(
      'Environment: Development (Web shop)',
    );
  });

  it('falls back to a non-production environment when the remembered one was deleted', async () => {
    const payload = twoProjects();
    const owner = { organisationId: payload.organisation.id, userId: payload.principalUser.id };
    rememberEnvironment(owner, payload.projects[1]!.id, 'deleted-environment');
    render('/', payload);
    expect((await environmentButton()).getAttribute('aria-label')).toBe(
      'Environment: Development (Web shop)',
    );
  });

  it('lists the environments grouped by project, with their keys and a laptop for local ones', async () => {
    render('/');
    const menu = await openMenu();
    const web = within(menu).getByRole('group', { name: 'Web shop' });
    const mobile = within(menu).getByRole('group', { name: 'Mobile app' });
    expect(within(menu).getAllByRole('group')).toEqual([web, mobile]);
    const links = (group: HTMLElement) =>
      within(group)
        .getAllByRole('menuitem')
        .map((item) => item.getAttribute('href'));
    expect(links(web)).toEqual([
      '/projects/web/environments/production/features',
      '/projects/web/environments/dev/features',
    ]);
    expect(links(mobile)).toEqual(['/projects/app/environments/staging/features']);

    const development = within(web).getByRole('menuitem', { name: /Development/ });
    expect(development.textContent).toContain('dev');
    expect(within(development).getByRole('img', { name: 'Local environment' })).toBeVisible();
    const production = within(web).getByRole('menuitem', { name: /Production/ });
    expect(within(production).queryByRole('img', { name: 'Local environment' })).toBeNull();
    expect(development.getAttribute('aria-current')).toBe('true');
    expect(production.getAttribute('aria-current')).toBeNull();
  });

  it("opens the chosen environment's feature list", async () => {
    const { router } = render('/');
    const menu = await openMenu();
    await userEvent.setup().click(within(menu).getByRole('menuitem', { name: /Staging/ }));
    expect(await screen.findByText('Staging environment of Mobile app')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/app/environments/staging/features');
    expect((await environmentButton()).getAttribute('aria-label')).toBe('Environment: Staging (Mobile app)');
  });

  it('works from the keyboard', async () => {
    const { router } = render('/');
    const user = userEvent.setup();
    (await environmentButton()).focus();
    await user.keyboard('{Enter}');
    await findOpenMenu();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(await screen.findByText('Staging environment of Mobile app')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/app/environments/staging/features');
  });

  it('is offered in the mobile navigation drawer, which closes once an environment is chosen', async () => {
    const { router } = render('/');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('button', { name: 'Environment: Development (Web shop)' }));
    await user.click(within(await findOpenMenu()).getByRole('menuitem', { name: /Production/ }));
    expect(await screen.findByText('Production environment of Web shop')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/web/environments/production/features');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('is hidden when there is no environment', async () => {
    render('/', initialPayload({ projects: [projectFixture('empty', 'Empty', [])] }));
    await screen.findByRole('heading', { name: 'Home' });
    expect(screen.queryByRole('button', { name: /^Environment: / })).toBeNull();
  });
});
