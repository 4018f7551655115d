import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InitialPayload } from '@vexil/core';
import {
  allFlagsOn,
  environmentRoute,
  InEnvironment,
  initialPayload,
  jsonResponse,
  projectFixture,
  renderRoute,
  stubApi,
} from '../../../testing/test-utils';
import { Home } from './home';

/**
 * The home page at `path`, as the app mounts it on / and /home, and the environments' feature lists the
 * cards link to: another feature's screen, stood in for by the environment the app's frame resolved.
 */
const renderHome = (path: string) =>
  renderRoute(
    [
      { path: '/', element: <Home /> },
      environmentRoute([
        {
          path: 'features',
          element: (
            <InEnvironment>
              {({ project, environment }) => (
                <p>
                  {environment.name} environment of {project.name}
                </p>
              )}
            </InEnvironment>
          ),
        },
      ]),
    ],
    path,
  );

const sixEnvironments = projectFixture('big', 'Big project', [
  { key: 'prod', name: 'Prod', production: true },
  { key: 'laptop', name: 'Laptop', local: true },
  { key: 'qa', name: 'QA' },
  { key: 'uat', name: 'UAT' },
  { key: 'demo', name: 'Demo' },
  { key: 'perf', name: 'Perf' },
]);

function render(payload: InitialPayload, path = '/') {
  stubApi({ 'GET /api/v1/initial': () => jsonResponse(200, payload) });
  return renderHome(path);
}

const card = (name: string) => screen.findByRole('article', { name });
const environmentLinks = (element: HTMLElement) =>
  within(element)
    .getAllByRole('link')
    .filter((link) => link.getAttribute('href')?.endsWith('/features'));

describe('home project cards', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("shows each project's name, key and environments, linking to their feature lists", async () => {
    const { router } = render(initialPayload());
    const web = await card('Web shop');
    expect(within(web).getByText('web')).toBeVisible();
    expect(environmentLinks(web).map((link) => link.getAttribute('href'))).toEqual([
      '/projects/web/environments/production/features',
      '/projects/web/environments/dev/features',
    ]);
    const production = within(web).getByRole('link', { name: /^Production/ });
    const development = within(web).getByRole('link', { name: /^Development/ });
    expect(within(development).getByRole('img', { name: 'Local environment' })).toBeVisible();
    expect(within(production).queryByRole('img', { name: 'Local environment' })).toBeNull();

    await userEvent.setup().click(development);
    expect(await screen.findByText('Development environment of Web shop')).toBeVisible();
    expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features');
  });

  it('lists at most four environments and links the rest to the project admin page', async () => {
    render(initialPayload({ projects: [sixEnvironments] }));
    const big = await card('Big project');
    expect(environmentLinks(big).map((link) => link.getAttribute('href'))).toEqual([
      '/projects/big/environments/prod/features',
      '/projects/big/environments/laptop/features',
      '/projects/big/environments/qa/features',
      '/projects/big/environments/uat/features',
    ]);
    expect(within(big).queryByText('Demo')).toBeNull();
    expect(within(within(big).getByRole('link', { name: /^Prod/ })).getByText('Production')).toBeVisible();
    expect(within(within(big).getByRole('link', { name: /^QA/ })).queryByText('Production')).toBeNull();
    expect(within(big).getByRole('link', { name: '+2 more' }).getAttribute('href')).toBe(
      '/admin/projects/big',
    );
  });

  it('says how many more environments there are without linking non-admins to the admin page', async () => {
    const payload = initialPayload({ projects: [sixEnvironments] });
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    render(payload);
    const big = await card('Big project');
    expect(within(big).getByText('+2 more')).toBeVisible();
    expect(within(big).queryByRole('link', { name: '+2 more' })).toBeNull();
  });

  it('shows no "more" when a project has four environments or fewer', async () => {
    render(initialPayload());
    expect(within(await card('Web shop')).queryByText(/more$/)).toBeNull();
  });

  it('invites an admin to set up a project when there is none', async () => {
    render(initialPayload({ projects: [] }));
    expect(await screen.findByText('You have no projects yet.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Set up a project' }).getAttribute('href')).toBe(
      '/admin/projects',
    );
  });

  it('tells other users that an admin sets projects up', async () => {
    const payload = initialPayload({ projects: [] });
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    render(payload);
    expect(await screen.findByText(/An organisation admin can set one up/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Set up a project' })).toBeNull();
  });

  it('is hidden when the home-projects flag is off', async () => {
    render(initialPayload({ flags: { ...allFlagsOn, 'home-projects': false } }));
    await screen.findByRole('heading', { name: 'Home' });
    expect(screen.queryByRole('heading', { name: 'Projects' })).toBeNull();
    expect(screen.queryByRole('article')).toBeNull();
  });
});
