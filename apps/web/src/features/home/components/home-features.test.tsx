import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { Feature, HomeFeatureFilter, InitialPayload } from '@vexil/core';
import { allFlagsOn, initialPayload, jsonResponse, renderRoute, stubApi } from '../../../test-utils';
import { Home } from './home';

/** The home page at `path`, as the app mounts it on / and /home. */
const renderHome = (path: string) => renderRoute({ path: '/', element: <Home /> }, path);

let ids = 0;
function feature(overrides: Partial<Feature> & Pick<Feature, 'key' | 'name'>): Feature {
  ids += 1;
  return {
    id: `00000000-0000-4000-9000-${String(ids).padStart(12, '0')}`,
    description: '',
    permanent: false,
    variants: [],
    tags: [],
    goals: [],
    jiraIssues: [],
    jiraIssueKeys: [],
    maintainer: null,
    projectKey: 'web',
    project: { key: 'web', name: 'Web shop' },
    bookmarked: false,
    archived: false,
    controls: {},
    createdDate: '2026-01-01T00:00:00.000Z',
    lastModifiedDate: '2026-01-02T00:00:00.000Z',
    ...overrides,
  };
}

const checkout = feature({
  key: 'new-checkout',
  name: 'New checkout',
  description: 'One-page checkout for the SHOP',
  maintainer: { id: '00000000-0000-4000-8000-000000000001', name: 'Demo Admin', email: 'admin@example.com' },
});
const banner = feature({
  key: 'summer-banner',
  name: 'Summer banner',
  description: 'Seasonal promotion',
  projectKey: 'app',
  project: { key: 'app', name: 'Apps' },
});
const dark = feature({ key: 'dark-mode', name: 'Dark mode', bookmarked: true });

const LISTS: Record<HomeFeatureFilter, Feature[]> = {
  recent: [banner, checkout, dark],
  bookmarked: [dark],
  maintaining: [checkout],
};

function serve(
  options: { payload?: InitialPayload; lists?: Partial<Record<HomeFeatureFilter, Feature[]>> } = {},
) {
  const lists = { ...LISTS, ...options.lists };
  return stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, options.payload ?? initialPayload()),
    'GET /api/v1/features/home': ({ url }) =>
      jsonResponse(200, lists[(url.searchParams.get('list') ?? 'recent') as HomeFeatureFilter]),
  });
}

/** Waits for a feature's row; the first render also waits for the session, so it may take a while. */
const featureLink = (name: string) => screen.findByRole('link', { name }, { timeout: 3000 });
const table = () => screen.findByRole('table', { name: 'Features' });
/** The feature names of the table's rows, top to bottom. */
async function names(): Promise<string[]> {
  const rows = within(await table())
    .getAllByRole('row')
    .slice(1);
  return rows.map((row) => within(row).queryByRole('link')?.textContent ?? row.textContent ?? '');
}

describe('home page Features section', () => {
  afterEach(() => {
    notifications.clean();
    vi.unstubAllGlobals();
  });

  it('lists recent features by name, each name linking to the feature', async () => {
    serve();
    renderHome('/');
    expect(await screen.findByRole('heading', { name: 'Features' })).toBeTruthy();
    await featureLink('New checkout');
    expect(await names()).toEqual(['Dark mode', 'New checkout', 'Summer banner']);
    expect(screen.getByRole('link', { name: 'Summer banner' }).getAttribute('href')).toBe(
      '/projects/app/features/summer-banner',
    );
    const row = screen.getByRole('link', { name: 'New checkout' }).closest('tr')!;
    expect(within(row).getByText('Web shop')).toBeTruthy();
    expect(within(row).getByText('Demo Admin')).toBeTruthy();
    // No maintainer: an em dash.
    expect(
      within(screen.getByRole('link', { name: 'Dark mode' }).closest('tr')!).getByText('—'),
    ).toBeTruthy();
  });

  it('switches list with the filter buttons and puts the choice in the address', async () => {
    const calls = serve();
    const { router } = renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();

    await user.click(screen.getByRole('radio', { name: 'Maintaining' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Summer banner' })).toBeNull());
    expect(await names()).toEqual(['New checkout']);
    expect(router.state.location.search).toBe('?filter=maintaining');

    await user.click(screen.getByRole('radio', { name: 'Bookmarked' }));
    await waitFor(async () => expect(await names()).toEqual(['Dark mode']));
    expect(router.state.location.search).toBe('?filter=bookmarked');
    expect(calls.map((call) => call.path).filter((path) => path.startsWith('/api/v1/features/home'))).toEqual(
      [
        '/api/v1/features/home?list=recent',
        '/api/v1/features/home?list=maintaining',
        '/api/v1/features/home?list=bookmarked',
      ],
    );
  });

  it('opens the list named in the address', async () => {
    serve();
    renderHome('/?filter=bookmarked');
    await featureLink('Dark mode');
    expect(await names()).toEqual(['Dark mode']);
    expect((screen.getByRole('radio', { name: 'Bookmarked' }) as HTMLInputElement).checked).toBe(true);
  });

  it('hides Bookmarked and Maintaining when their flags are off', async () => {
    const calls = serve({
      payload: initialPayload({ flags: { ...allFlagsOn, bookmarked: false, maintainer: false } }),
    });
    renderHome('/?filter=bookmarked');
    await featureLink('Summer banner');
    expect(screen.queryByRole('radio', { name: 'Bookmarked' })).toBeNull();
    expect(screen.queryByRole('radio', { name: 'Maintaining' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Bookmark/ })).toBeNull();
    expect(calls.some((call) => call.path === '/api/v1/features/home?list=bookmarked')).toBe(false);
  });

  it('filters by name, key or description, in any case', async () => {
    serve();
    renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();
    const filter = screen.getByRole('textbox', { name: 'Filter Features...' });

    await user.type(filter, 'one-PAGE');
    expect(await names()).toEqual(['New checkout']);
    await user.clear(filter);
    await user.type(filter, 'DARK-mo');
    expect(await names()).toEqual(['Dark mode']);
    await user.clear(filter);
    await user.type(filter, 'no such feature');
    expect(within(await table()).getByText('No results')).toBeTruthy();
  });

  it('says "No results" when the list is empty', async () => {
    serve({ lists: { recent: [] } });
    renderHome('/');
    expect(await screen.findByText('No results')).toBeTruthy();
  });

  it('sorts by a column when its header is clicked, and reverses on a second click', async () => {
    serve();
    renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();
    const header = (name: string) => screen.getByRole('columnheader', { name });

    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(header('Name')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');
    expect(await names()).toEqual(['Summer banner', 'New checkout', 'Dark mode']);

    await user.click(within(header('Project')).getByRole('button'));
    expect(header('Project').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    expect(await names()).toEqual(['Summer banner', 'Dark mode', 'New checkout']);

    await user.click(within(header('Key')).getByRole('button'));
    await user.click(within(header('Key')).getByRole('button'));
    expect(header('Key').getAttribute('aria-sort')).toBe('descending');
    expect(await names()).toEqual(['Summer banner', 'New checkout', 'Dark mode']);
  });

  it('copies a key when it is clicked and says "Copied to clipboard"', async () => {
    serve();
    renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    // After userEvent.setup(), which installs its own clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    await user.click(screen.getByRole('button', { name: 'Copy key new-checkout' }));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('new-checkout');
  });

  it('bookmarks a feature from its star, and says so when the bookmark is not saved', async () => {
    const bookmarked = new Set<string>();
    const bookmarkCalls = stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/features/home': () =>
        jsonResponse(
          200,
          LISTS.recent.map((f) => ({ ...f, bookmarked: bookmarked.has(f.id) })),
        ),
      [`PUT /api/v1/features/${checkout.id}/bookmark/true`]: () => {
        bookmarked.add(checkout.id);
        return jsonResponse(200, { featureId: checkout.id, bookmarked: true });
      },
      [`PUT /api/v1/features/${banner.id}/bookmark/true`]: () =>
        jsonResponse(500, { title: 'The database is unavailable.' }),
    });
    renderHome('/');
    const user = userEvent.setup();
    const star = await screen.findByRole('button', { name: 'Bookmark New checkout' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    expect(bookmarkCalls.some((call) => call.method === 'PUT' && call.path.endsWith('/bookmark/true'))).toBe(
      true,
    );
    expect(
      (await screen.findByRole('button', { name: 'Remove bookmark from New checkout' })).getAttribute(
        'aria-pressed',
      ),
    ).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Bookmark Summer banner' }));
    expect(
      await screen.findByText(
        'We encountered an error, the bookmark was not saved. The database is unavailable.',
      ),
    ).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Bookmark Summer banner' })).toBeTruthy();
  });

  it('says when the list cannot be loaded, and loads it again on Retry', async () => {
    let fail = true;
    stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/features/home': () =>
        fail ? jsonResponse(500, { title: 'Something broke.' }) : jsonResponse(200, LISTS.recent),
    });
    renderHome('/');
    const alert = (await screen.findByText('We could not load the features.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something broke.');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Summer banner' })).toBeTruthy();
  });
});
