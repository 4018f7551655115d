import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications, notificationsStore } from '@mantine/notifications';
import type { HomeFeature, HomeFeatureFilter, InitialPayload } from '@vexil/core';
import { allFlagsOn, initialPayload, jsonResponse, renderRoute, stubApi } from '../../../testing/test-utils';
import { Home } from './home';

/** The home page at `path`, as the app mounts it on / and /home. */
const renderHome = (path: string) => renderRoute({ path: '/', element: <Home /> }, path);

let ids = 0;
function feature(overrides: Partial<HomeFeature> & Pick<HomeFeature, 'key' | 'name'>): HomeFeature {
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
    lastChangedDate: '2026-01-02T00:00:00.000Z',
    ...overrides,
  };
}

const checkout = feature({
  key: 'new-checkout',
  name: 'New checkout',
  description: 'One-page checkout for the SHOP',
  maintainer: { id: '00000000-0000-4000-8000-000000000001', name: 'Demo Admin', email: 'admin@example.com' },
  lastChangedDate: '2026-03-03T16:05:00.000Z',
});
const banner = feature({
  key: 'summer-banner',
  name: 'Summer banner',
  description: 'Seasonal promotion',
  projectKey: 'app',
  project: { key: 'app', name: 'Apps' },
  lastChangedDate: '2026-03-04T09:00:00.000Z',
});
const dark = feature({
  key: 'dark-mode',
  name: 'Dark mode',
  bookmarked: true,
  lastChangedDate: '2026-02-01T12:00:00.000Z',
});

/** Each list as the server keeps it; `serve` sorts, filters and pages it as the server does. */
const LISTS: Record<HomeFeatureFilter, HomeFeature[]> = {
  recent: [dark, checkout, banner],
  bookmarked: [dark],
  maintaining: [checkout],
};

const sortText: Record<string, (feature: HomeFeature) => string> = {
  lastChanged: (f) => f.lastChangedDate,
  key: (f) => f.key,
  name: (f) => f.name,
  description: (f) => f.description,
  project: (f) => f.project.name,
  maintainer: (f) => f.maintainer?.name ?? '',
};

/** GET /api/v1/features/home as the server answers it: filtered, sorted, one page of `pageSize`. */
function homePage(features: readonly HomeFeature[], url: URL, pageSize = 50) {
  const params = url.searchParams;
  const by = params.get('sortBy') ?? 'lastChanged';
  const sign = (params.get('sortDirection') ?? (by === 'lastChanged' ? 'desc' : 'asc')) === 'asc' ? 1 : -1;
  const text = (params.get('query') ?? '').toLowerCase();
  const page = Number(params.get('page') ?? '0');
  const found = features
    .filter((f) => [f.name, f.key, f.description].some((value) => value.toLowerCase().includes(text)))
    .sort((a, b) => sign * sortText[by]!(a).localeCompare(sortText[by]!(b)));
  return {
    content: found.slice(page * pageSize, (page + 1) * pageSize),
    last: (page + 1) * pageSize >= found.length,
    page,
    pageSize,
    totalElements: found.length,
  };
}

function serve(
  options: { payload?: InitialPayload; lists?: Partial<Record<HomeFeatureFilter, HomeFeature[]>> } = {},
) {
  const lists = { ...LISTS, ...options.lists };
  return stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, options.payload ?? initialPayload()),
    'GET /api/v1/features/home': ({ url }) =>
      jsonResponse(
        200,
        homePage(lists[(url.searchParams.get('list') ?? 'recent') as HomeFeatureFilter], url),
      ),
  });
}

const homeCalls = (calls: { path: string }[]) =>
  calls.map((call) => call.path).filter((path) => path.startsWith('/api/v1/features/home'));

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

  it('lists recent features by last change, newest first, each name linking to the feature', async () => {
    serve();
    renderHome('/');
    expect(await screen.findByRole('heading', { name: 'Features' })).toBeVisible();
    await featureLink('New checkout');
    expect(await names()).toEqual(['Summer banner', 'New checkout', 'Dark mode']);
    expect(screen.getByRole('columnheader', { name: 'Last changed' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(screen.getByRole('link', { name: 'Summer banner' }).getAttribute('href')).toBe(
      '/projects/app/features/summer-banner',
    );
    const row = screen.getByRole('link', { name: 'New checkout' }).closest('tr')!;
    expect(within(row).getByText('Web shop')).toBeVisible();
    expect(within(row).getByText('Demo Admin')).toBeVisible();
    // No maintainer: an em dash.
    expect(
      within(screen.getByRole('link', { name: 'Dark mode' }).closest('tr')!).getByText('—'),
    ).toBeVisible();
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
    expect(homeCalls(calls)).toEqual([
      '/api/v1/features/home?list=recent&page=0&sortBy=lastChanged&sortDirection=desc',
      '/api/v1/features/home?list=maintaining&page=0&sortBy=lastChanged&sortDirection=desc',
      '/api/v1/features/home?list=bookmarked&page=0&sortBy=lastChanged&sortDirection=desc',
    ]);
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
    expect(homeCalls(calls).some((path) => path.includes('list=bookmarked'))).toBe(false);
  });

  it('filters by name, key or description on the server', async () => {
    const calls = serve();
    renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();
    const filter = screen.getByRole('textbox', { name: 'Filter Features...' });

    await user.type(filter, 'one-PAGE');
    await waitFor(async () => expect(await names()).toEqual(['New checkout']));
    await user.clear(filter);
    await user.type(filter, 'DARK-mo');
    await waitFor(async () => expect(await names()).toEqual(['Dark mode']));
    await user.clear(filter);
    await user.type(filter, 'no such feature');
    expect(await within(await table()).findByText('No results')).toBeVisible();
    expect(homeCalls(calls)).toContain(
      '/api/v1/features/home?list=recent&query=DARK-mo&page=0&sortBy=lastChanged&sortDirection=desc',
    );
  });

  it('says "No results" when the list is empty', async () => {
    serve({ lists: { recent: [] } });
    renderHome('/');
    expect(await screen.findByText('No results')).toBeVisible();
  });

  it('sorts by a column when its header is clicked, reverses on a second click, and keeps it in the address', async () => {
    serve();
    const { router } = renderHome('/');
    await featureLink('Summer banner');
    const user = userEvent.setup();
    const header = (name: string) => screen.getByRole('columnheader', { name });

    expect(header('Name').getAttribute('aria-sort')).toBe('none');
    await user.click(within(header('Name')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Last changed').getAttribute('aria-sort')).toBe('none');
    await waitFor(async () => expect(await names()).toEqual(['Dark mode', 'New checkout', 'Summer banner']));
    expect(router.state.location.search).toBe('?sortBy=name&sortDirection=asc');
    await user.click(within(header('Name')).getByRole('button'));
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');
    await waitFor(async () => expect(await names()).toEqual(['Summer banner', 'New checkout', 'Dark mode']));

    await user.click(within(header('Project')).getByRole('button'));
    expect(header('Project').getAttribute('aria-sort')).toBe('ascending');
    await waitFor(async () => expect(await names()).toEqual(['Summer banner', 'Dark mode', 'New checkout']));

    await user.click(within(header('Last changed')).getByRole('button'));
    expect(header('Last changed').getAttribute('aria-sort')).toBe('descending');
    await user.click(within(header('Last changed')).getByRole('button'));
    expect(router.state.location.search).toBe('?sortBy=lastChanged&sortDirection=asc');
    await waitFor(async () => expect(await names()).toEqual(['Dark mode', 'New checkout', 'Summer banner']));
  });

  it('opens with the sort and page the address names', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      feature({ key: `f${i}`, name: `F ${String(i).padStart(3, '0')}` }),
    );
    const calls = serve({ lists: { recent: many } });
    renderHome('/?sortBy=name&sortDirection=desc&page=2');
    await featureLink('F 069');
    expect((await names())[0]).toBe('F 069');
    expect(screen.getByRole('columnheader', { name: 'Name' }).getAttribute('aria-sort')).toBe('descending');
    expect(homeCalls(calls)).toEqual([
      '/api/v1/features/home?list=recent&page=1&sortBy=name&sortDirection=desc',
    ]);
  });

  it('shows the last change as a relative time with the full date', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-04T10:00:00.000Z'), toFake: ['Date'] });
    serve();
    renderHome('/');
    const row = (await featureLink('Summer banner')).closest('tr')!;
    const time = row.querySelector('time')!;
    expect(time.textContent).toBe('an hour ago');
    expect(time.getAttribute('datetime')).toBe('2026-03-04T09:00:00.000Z');
    await userEvent.setup().hover(time);
    expect(await screen.findByText(/^4th Mar 2026, \d{1,2}:00[ap]m$/)).toBeVisible();
    vi.useRealTimers();
  });

  it('pages 50 at a time with a pager, and the page is in the address', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      feature({
        key: `f${i}`,
        name: `F ${String(i).padStart(3, '0')}`,
        lastChangedDate: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      }),
    );
    serve({ lists: { recent: many } });
    const { router } = renderHome('/');
    await featureLink('F 119');
    expect(await names()).toHaveLength(50);
    expect(screen.getByText('1–50 of 120')).toBeVisible();
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await featureLink('F 019');
    expect(await names()).toHaveLength(20);
    expect(screen.getByText('101–120 of 120')).toBeVisible();
    expect(router.state.location.search).toBe('?page=3');

    // A new sort starts again from the first page.
    await user.click(within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'));
    await featureLink('F 000');
    expect(router.state.location.search).toBe('?sortBy=name&sortDirection=asc');
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
    expect(await screen.findByText('Copied to clipboard')).toBeVisible();
    expect(writeText).toHaveBeenCalledWith('new-checkout');
  });

  it('bookmarks a feature from its star, and says so when the bookmark is not saved', async () => {
    const bookmarked = new Set<string>();
    const bookmarkCalls = stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/features/home': ({ url }) =>
        jsonResponse(
          200,
          homePage(
            LISTS.recent.map((f) => ({ ...f, bookmarked: bookmarked.has(f.id) })),
            url,
          ),
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
    ).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Bookmark Summer banner' })).toBeVisible();
  });

  it('says once, at once, when the list cannot be loaded, and loads it again on Retry', async () => {
    let fail = true;
    const calls = stubApi({
      'GET /api/v1/initial': () => jsonResponse(200, initialPayload()),
      'GET /api/v1/features/home': ({ url }) =>
        fail
          ? jsonResponse(500, { title: 'Something broke.' })
          : jsonResponse(200, homePage(LISTS.recent, url)),
    });
    renderHome('/');
    const alert = (await screen.findByText('We could not load the features.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something broke.');
    // The alert is the one message: no toast says it again.
    expect(notificationsStore.getState().notifications).toEqual([]);
    expect(homeCalls(calls)).toHaveLength(1);
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Summer banner' })).toBeVisible();
  });
});
