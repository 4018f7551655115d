import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useParams, type RouteObject } from 'react-router';
import { defaultVariants, type Feature, type InitialPayload } from '@vexil/core';
import { rememberEnvironment } from '../../../lib/current-environment';
import {
  environmentRoute,
  initialPayload,
  jsonResponse,
  projectFixture,
  renderRoute,
  stubApi,
} from '../../../testing/test-utils';

/*
 * The quick search inside the app's shell, over stand-ins for the pages it leads to: each says where the
 * user is, and the feature list has its search box.
 */

function FeatureListStandIn() {
  const { projectKey, environmentKey } = useParams();
  return (
    <>
      <h1>
        Features of {projectKey}/{environmentKey}
      </h1>
      <input type="search" aria-label="Search features" />
    </>
  );
}

function FeaturePageStandIn() {
  const { featureKey } = useParams();
  return <h1>Feature {featureKey}</h1>;
}

const routes: RouteObject[] = [
  { path: '/', element: <h1>Home</h1> },
  environmentRoute([
    { path: 'features', element: <FeatureListStandIn /> },
    { path: 'features/:featureKey', element: <FeaturePageStandIn /> },
  ]),
];

const web = projectFixture('web', 'Web shop', [
  { key: 'development', name: 'Development' },
  { key: 'production', name: 'Production', production: true },
]);
const mobile = projectFixture('mobile', 'Mobile app', [
  { key: 'staging', name: 'Staging' },
  { key: 'live', name: 'Live', production: true },
]);
const empty = projectFixture('empty', 'Empty project', []);

const DATE = '2026-01-02T03:04:05.000Z';
let featureIds = 0;

function feature(project: InitialPayload['projects'][number], key: string, name: string): Feature {
  featureIds += 1;
  return {
    id: `00000000-0000-4000-8000-${String(900_000 + featureIds).padStart(12, '0')}`,
    name,
    key,
    description: `What ${name} does.`,
    permanent: false,
    variants: defaultVariants(),
    tags: [],
    goals: [],
    jiraIssues: [],
    jiraIssueKeys: [],
    maintainer: null,
    projectKey: project.key,
    project: { key: project.key, name: project.name },
    bookmarked: false,
    archived: false,
    controls: {},
    createdDate: DATE,
    lastModifiedDate: DATE,
  };
}

const features = [
  feature(web, 'new-checkout', 'New checkout'),
  feature(web, 'dark-mode', 'Dark mode'),
  feature(mobile, 'mobile-checkout', 'Checkout on phones'),
];

type Handler = Parameters<typeof stubApi>[0][string];

/** The organisation-wide search as the server answers it: name, key or description containing the text. */
const search: Handler = ({ url }) => {
  const text = (url.searchParams.get('filter') ?? '').toLowerCase();
  return jsonResponse(
    200,
    features.filter((f) =>
      [f.name, f.key, f.description].some((field) => field.toLowerCase().includes(text)),
    ),
  );
};

function renderQuickSearch(
  options: { path?: string; payload?: InitialPayload; handlers?: Record<string, Handler> } = {},
) {
  const payload = options.payload ?? initialPayload({ projects: [web, mobile, empty] });
  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/features': search,
    ...options.handlers,
  });
  const rendered = renderRoute(routes, options.path ?? '/', { shell: true });
  const searches = () => calls.filter((call) => call.path.startsWith('/api/v1/features?'));
  return { ...rendered, payload, searches, user: userEvent.setup() };
}

const dialog = () => screen.findByRole('dialog', { name: 'Quick search' });
const searchField = () =>
  screen.getByRole('combobox', { name: 'Search features, projects and environments' });
/** The group `name` once it lists results (while features are searched for, it says so instead). */
function group(name: string): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.getByRole('group', { name });
    expect(within(found).queryAllByRole('option')).not.toHaveLength(0);
    return found;
  });
}

/** What each option of `group` reads, in order. */
function optionsOf(element: HTMLElement): string[] {
  return within(element)
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

function selectedOption(): string | null {
  const id = searchField().getAttribute('aria-activedescendant');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('quick search', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens with / on a page, finds a feature by part of its name and opens it where its project is worked in', async () => {
    const { router, searches, user } = renderQuickSearch();
    await screen.findByRole('heading', { name: 'Home' });

    await user.keyboard('/');
    await dialog();
    expect(document.activeElement).toBe(searchField());
    // The slash opened the dialog; it is not typed into the search.
    expect(searchField()).toHaveProperty('value', '');

    await user.type(searchField(), 'CHECK');
    const found = await group('Features');
    expect(optionsOf(found)).toEqual([
      'Checkout on phonesmobile-checkoutMobile app',
      'New checkoutnew-checkoutWeb shop',
    ]);
    // Sent when the typing pauses, not at every key.
    expect(searches().length).toBeLessThan('CHECK'.length);
    expect(searches().at(-1)?.path).toBe('/api/v1/features?filter=CHECK');
    expect(selectedOption()).toBe('Checkout on phonesmobile-checkoutMobile app');

    await user.keyboard('{ArrowDown}{Enter}');
    await screen.findByRole('heading', { name: 'Feature new-checkout' });
    // Nothing remembered: the project's non-production environment.
    expect(router.state.location.pathname).toBe(
      '/projects/web/environments/development/features/new-checkout',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens a feature or a project in the environment last used in its project', async () => {
    const { router, payload, user } = renderQuickSearch();
    await screen.findByRole('heading', { name: 'Home' });
    const owner = { organisationId: payload.organisation.id, userId: payload.principalUser.id };
    rememberEnvironment(owner, web.id, web.environments[1]!.id);

    await user.click(screen.getByRole('button', { name: 'Search' }));
    await dialog();
    await user.type(searchField(), 'dark');
    await user.click(within(await group('Features')).getByRole('option', { name: /Dark mode/ }));
    await screen.findByRole('heading', { name: 'Feature dark-mode' });
    expect(router.state.location.pathname).toBe('/projects/web/environments/production/features/dark-mode');

    await user.click(screen.getByRole('button', { name: 'Search' }));
    await dialog();
    await user.type(searchField(), 'web');
    await user.click(within(await group('Projects')).getByRole('option', { name: /Web shop/ }));
    await screen.findByRole('heading', { name: 'Features of web/production' });
  });

  it('lists projects and environments before anything is typed, and opens an environment with the keyboard', async () => {
    const { router, user } = renderQuickSearch({ path: '/projects/web/environments/production/features' });
    await screen.findByRole('heading', { name: 'Features of web/production' });

    await user.keyboard('{Control>}k{/Control}');
    await dialog();
    expect(screen.queryByRole('group', { name: 'Features' })).toBeNull();
    // An organisation admin may open a project without environments: its admin page.
    expect(optionsOf(await group('Projects'))).toEqual([
      'Web shopweb',
      'Mobile appmobile',
      'Empty projectempty',
    ]);
    // The current environment first.
    expect(optionsOf(await group('Environments'))).toEqual([
      'ProductionproductionWeb shopProduction',
      'DevelopmentdevelopmentWeb shop',
      'StagingstagingMobile app',
      'LiveliveMobile appProduction',
    ]);
    expect(selectedOption()).toBe('Web shopweb');

    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(selectedOption()).toBe('Empty projectempty');
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(selectedOption()).toBe('StagingstagingMobile app');
    await user.keyboard('{Enter}');

    await screen.findByRole('heading', { name: 'Features of mobile/staging' });
    expect(router.state.location.pathname).toBe('/projects/mobile/environments/staging/features');
    // It is the current environment now, as when chosen in the switcher.
    expect(screen.getByRole('button', { name: 'Environment: Staging (Mobile app)' })).toBeVisible();
  });

  it('leaves out a project without environments for a user who cannot set one up', async () => {
    const payload = initialPayload({ projects: [web, empty] });
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    const { user } = renderQuickSearch({ payload });
    await screen.findByRole('heading', { name: 'Home' });
    await user.keyboard('/');
    await dialog();
    expect(optionsOf(await group('Projects'))).toEqual(['Web shopweb']);
  });

  it('matches the name or the key whatever the case, in every group', async () => {
    const { user } = renderQuickSearch();
    await screen.findByRole('heading', { name: 'Home' });
    await user.keyboard('/');
    await dialog();

    await user.type(searchField(), 'MOBILE');
    expect(optionsOf(await group('Features'))).toEqual(['Checkout on phonesmobile-checkoutMobile app']);
    expect(optionsOf(await group('Projects'))).toEqual(['Mobile appmobile']);
    // An environment's project is shown, not matched.
    expect(screen.queryByRole('group', { name: 'Environments' })).toBeNull();

    await user.clear(searchField());
    await user.type(searchField(), 'Liv');
    expect(optionsOf(await group('Environments'))).toEqual(['LiveliveMobile appProduction']);
  });

  it('says it is searching until the server answers, then Nothing found when nothing matches', async () => {
    const pending = new Map<string, (response: Response) => void>();
    const { user } = renderQuickSearch({
      handlers: {
        'GET /api/v1/features': ({ url }) =>
          new Promise<Response>((resolve) => pending.set(url.searchParams.get('filter') ?? '', resolve)),
      },
    });
    await screen.findByRole('heading', { name: 'Home' });
    await user.keyboard('/');
    await dialog();

    await user.type(searchField(), 'zzz');
    expect(await screen.findByText('Searching features…')).toBeVisible();
    expect(screen.queryByText('Nothing found')).toBeNull();
    await waitFor(() => expect(pending.has('zzz')).toBe(true));
    pending.get('zzz')?.(jsonResponse(200, []));
    expect(await screen.findByText('Nothing found')).toBeVisible();
    expect(screen.queryByText('Searching features…')).toBeNull();
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('shows a failed search with Retry beside the projects and environments it found', async () => {
    let fail = true;
    const { user } = renderQuickSearch({
      handlers: {
        'GET /api/v1/features': (request) =>
          fail ? jsonResponse(503, { title: 'The database is not answering.' }) : search(request),
      },
    });
    await screen.findByRole('heading', { name: 'Home' });
    await user.keyboard('/');
    await dialog();

    await user.type(searchField(), 'mo');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('We could not search features. The database is not answering.');
    expect(optionsOf(await group('Projects'))).toEqual(['Mobile appmobile']);

    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    // Those starting with the text first.
    expect(optionsOf(await group('Features'))).toEqual([
      'Checkout on phonesmobile-checkoutMobile app',
      'Dark modedark-modeWeb shop',
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves a slash typed in a text field there, and opens with Ctrl-K from inside one', async () => {
    const { user } = renderQuickSearch({ path: '/projects/web/environments/development/features' });
    const box = await screen.findByRole('searchbox', { name: 'Search features' });

    await user.type(box, 'a/b');
    expect(box).toHaveProperty('value', 'a/b');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.keyboard('{Control>}k{/Control}');
    await dialog();
    expect(document.activeElement).toBe(searchField());
  });

  it('opens from the Search button, and Escape closes it and gives the focus back', async () => {
    const { user } = renderQuickSearch();
    await screen.findByRole('heading', { name: 'Home' });
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button.getAttribute('aria-keyshortcuts')).toBe('/ Control+K');

    await user.click(button);
    await dialog();
    await user.type(searchField(), 'dark');
    await group('Features');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));

    // Opened again, it starts afresh, without the last search.
    await user.keyboard('/');
    await dialog();
    expect(searchField()).toHaveProperty('value', '');
  });
});
