import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate } from '../../../lib/format';
import { initialPayload, jsonResponse } from '../../../testing/test-utils';
import {
  featureFixture,
  listRequests,
  renderFeatureList,
  resetOverlays,
  serveFeatures,
  type ApiHandler,
} from '../../../testing/feature-list-test-server';

/*
 * The feature list's filters, sort and the columns they work on (docs/product.md §2 "Feature list"):
 * tags, on/off, stale and targeting filters and sortable Name, Key and Last changed, all kept in the
 * address; the answer to each comes from the server.
 */

const LIST = '/projects/web/environments/dev/features';
/** A busy machine renders the list slowly in jsdom: room for each step. */
const SLOW = { timeout: 5000 };

const checkout = featureFixture(
  1,
  {
    name: 'Checkout',
    key: 'checkout',
    tags: ['payments', 'beta'],
    lastChangedDate: '2026-01-05T10:00:00.000Z',
  },
  { dev: { enabled: true, trafficStatus: 'active' } },
);
const search = featureFixture(2, {
  name: 'Search',
  key: 'search',
  tags: ['beta', 'search', 'mobile', 'legacy'],
  lastChangedDate: '2026-01-03T10:00:00.000Z',
});
const banner = featureFixture(
  3,
  { name: 'Banner', key: 'banner', lastChangedDate: '2026-01-04T10:00:00.000Z' },
  {
    dev: {
      enabled: true,
      trafficStatus: 'inactive',
      staleDays: 9,
      rules: [
        {
          defaultRule: true,
          audience: null,
          variantSplits: [
            { variantKey: 'on', split: 50 },
            { variantKey: 'off', split: 50 },
          ],
        },
      ],
    },
  },
);
const FEATURES = [checkout, search, banner];

function open(path = LIST) {
  const rendered = renderFeatureList(path);
  return { ...rendered, user: userEvent.setup() };
}

const table = () => screen.getByRole('table', { name: /^Features in/ });
/** The names of the rows shown, top to bottom. */
const names = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('link')[0]!.textContent);
const header = (name: string) => screen.getByRole('columnheader', { name });
const lastRequest = (calls: ReturnType<typeof serveFeatures>['calls']) => listRequests(calls).at(-1)!;

describe('Feature list filters and sort', { timeout: 20_000 }, () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows each feature’s tags and when it last changed, with the rest of the tags and the full date on hover', async () => {
    serveFeatures({ features: FEATURES });
    const { user } = open();
    await screen.findByRole('link', { name: 'Checkout' }, SLOW);
    const row = (name: string) => screen.getByRole('link', { name }).closest('tr')!;

    const checkoutTags = within(row('Checkout')).getByRole('list', { name: 'Tags' });
    expect(
      within(checkoutTags)
        .getAllByRole('listitem')
        .map((tag) => tag.textContent),
    ).toEqual(['payments', 'beta']);
    const searchTags = within(row('Search')).getByRole('list', { name: 'Tags' });
    expect(
      within(searchTags)
        .getAllByRole('listitem')
        .map((tag) => tag.textContent),
    ).toEqual(['beta', 'search', 'mobile', '+1']);
    const more = within(searchTags).getByLabelText('1 more: legacy');
    await user.hover(more);
    expect(await screen.findByRole('tooltip', { name: 'beta, search, mobile, legacy' }, SLOW)).toBeVisible();
    expect(within(row('Banner')).getByLabelText('No tags')).toBeVisible();

    const changed = row('Checkout').querySelector('time')!;
    expect(changed.getAttribute('datetime')).toBe('2026-01-05T10:00:00.000Z');
    expect(changed.textContent).toMatch(/ago$|in /);
    await user.hover(changed);
    expect(
      await screen.findByRole('tooltip', { name: formatDate('2026-01-05T10:00:00.000Z') }, SLOW),
    ).toBeVisible();
  });

  it('filters by tag, on/off, staleness and targeting from the first page, and keeps each in the address', async () => {
    const { calls } = serveFeatures({ features: FEATURES });
    const { user, router } = open(`${LIST}?page=2`);
    await screen.findByRole('link', { name: 'Checkout' }, SLOW);
    expect(names()).toEqual(['Banner', 'Checkout', 'Search']);

    await user.click(screen.getByRole('combobox', { name: 'Tags' }));
    await user.click(await screen.findByRole('option', { name: 'beta' }, SLOW));
    await waitFor(() => expect(names()).toEqual(['Checkout', 'Search']), SLOW);
    expect(router.state.location.search).toBe('?tag=beta');
    expect(lastRequest(calls).getAll('tag')).toEqual(['beta']);
    expect(lastRequest(calls).get('page')).toBe('0');

    await user.click(screen.getByRole('radio', { name: 'On' }));
    await waitFor(() => expect(names()).toEqual(['Checkout']), SLOW);
    expect(router.state.location.search).toBe('?tag=beta&state=on');

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(names()).toEqual(['Banner', 'Checkout', 'Search']), SLOW);
    expect(router.state.location.search).toBe('');

    await user.click(screen.getByRole('checkbox', { name: 'Stale' }));
    await waitFor(() => expect(names()).toEqual(['Banner']), SLOW);
    expect(router.state.location.search).toBe('?stale=true');
    await user.click(screen.getByRole('checkbox', { name: 'Stale' }));

    await user.click(screen.getByRole('combobox', { name: 'Targeting' }));
    await user.click(await screen.findByRole('option', { name: '100% one variant' }, SLOW));
    await waitFor(() => expect(names()).toEqual(['Checkout']), SLOW);
    expect(router.state.location.search).toBe('?targeting=single');
    expect(lastRequest(calls).get('targeting')).toBe('single');

    await user.click(screen.getByRole('radio', { name: 'Off' }));
    await waitFor(() => expect(screen.getByText('No feature matches these filters.')).toBeVisible(), SLOW);
    expect(lastRequest(calls).get('state')).toBe('off');
  });

  it('reads the filters and the sort from the address', async () => {
    const { calls } = serveFeatures({ features: FEATURES });
    open(`${LIST}?tag=beta&tag=search&state=off&sortBy=lastChanged&sortDirection=asc`);
    expect(await screen.findByRole('link', { name: 'Search' }, SLOW)).toBeVisible();
    const request = listRequests(calls)[0]!;
    expect(request.getAll('tag')).toEqual(['beta', 'search']);
    expect([request.get('state'), request.get('sortBy'), request.get('sortDirection')]).toEqual([
      'off',
      'lastChanged',
      'asc',
    ]);
    expect((screen.getByRole('radio', { name: 'Off' }) as HTMLInputElement).checked).toBe(true);
    const tags = screen.getByRole('combobox', { name: 'Tags' }).closest('.mantine-MultiSelect-root')!;
    expect(within(tags as HTMLElement).getByText('search')).toBeVisible();
    expect(header('Last changed').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Name').getAttribute('aria-sort')).toBe('none');
  });

  it('sorts by Name, Key or Last changed when the header is clicked, each click turning the order round', async () => {
    const { calls } = serveFeatures({ features: FEATURES });
    const { user, router } = open();
    await screen.findByRole('link', { name: 'Checkout' }, SLOW);
    expect(header('Name').getAttribute('aria-sort')).toBe('ascending');

    await user.click(within(header('Last changed')).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['Checkout', 'Banner', 'Search']), SLOW);
    expect(header('Last changed').getAttribute('aria-sort')).toBe('descending');
    expect(router.state.location.search).toBe('?sortBy=lastChanged&sortDirection=desc');

    await user.click(within(header('Last changed')).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['Search', 'Banner', 'Checkout']), SLOW);
    expect(header('Last changed').getAttribute('aria-sort')).toBe('ascending');

    await user.click(within(header('Name')).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['Banner', 'Checkout', 'Search']), SLOW);
    await user.click(within(header('Name')).getByRole('button'));
    await waitFor(() => expect(names()).toEqual(['Search', 'Checkout', 'Banner']), SLOW);
    expect(header('Name').getAttribute('aria-sort')).toBe('descending');
    expect([lastRequest(calls).get('sortBy'), lastRequest(calls).get('sortDirection')]).toEqual([
      'name',
      'desc',
    ]);

    await user.click(within(header('Key')).getByRole('button'));
    expect(router.state.location.search).toBe('?sortBy=key&sortDirection=asc');
  });

  it('says when no feature matches the filters, apart from having no features, and clears them', async () => {
    serveFeatures({ features: FEATURES });
    const { user, router } = open(`${LIST}?tag=search&state=on&q=sea`);
    expect(await screen.findByText('No feature matches these filters and “sea”.', {}, SLOW)).toBeVisible();
    expect(screen.queryByText('No features yet. Create one to get started.')).toBeNull();

    const clear = screen.getAllByRole('button', { name: 'Clear filters' });
    await user.click(clear.at(-1)!);
    expect(await screen.findByRole('link', { name: 'Checkout' }, SLOW)).toBeVisible();
    expect(router.state.location.search).toBe('');
    expect((screen.getByRole('searchbox', { name: 'Search features' }) as HTMLInputElement).value).toBe('');
  });

  it('keeps the rows on screen, dimmed, while a filter’s answer is on its way', async () => {
    let release: () => void = () => undefined;
    // Answers at once, except a request for the features that are off, which waits for `release`.
    const list: ApiHandler = async ({ url }) => {
      const off = url.searchParams.get('state') === 'off';
      if (off) await new Promise<void>((resolve) => (release = resolve));
      const shown = FEATURES.filter((feature) => !off || !feature.controls.dev!.enabled);
      return jsonResponse(200, {
        content: shown.map((feature) => ({ ...feature, controls: { dev: feature.controls.dev } })),
        last: true,
        page: 0,
        pageSize: 50,
        totalElements: shown.length,
      });
    };
    serveFeatures({
      features: FEATURES,
      handlers: { 'GET /api/v1/projects/web/environments/dev/features': list },
    });
    const { user } = open();
    await screen.findByRole('link', { name: 'Checkout' }, SLOW);

    await user.click(screen.getByRole('radio', { name: 'Off' }));

    await waitFor(() => expect(table().getAttribute('aria-busy')).toBe('true'), SLOW);
    expect(names()).toEqual(['Checkout', 'Search', 'Banner']);
    expect(screen.queryAllByTestId('feature-skeleton-row')).toHaveLength(0);
    release();
    await waitFor(() => expect(names()).toEqual(['Search']), SLOW);
    expect(table().getAttribute('aria-busy')).toBeNull();
  });

  it('shows no tags and no tag filter without the tags flag, and ignores a tag in the address', async () => {
    const payload = initialPayload();
    payload.flags = { ...payload.flags, tags: false };
    const { calls } = serveFeatures({ payload, features: FEATURES });
    open(`${LIST}?tag=beta`);
    await screen.findByRole('link', { name: 'Banner' }, SLOW);
    expect(screen.queryByRole('columnheader', { name: 'Tags' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Tags' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Tags' })).toBeNull();
    expect(listRequests(calls)[0]!.getAll('tag')).toEqual([]);
  });

  it('on a phone, folds the filters behind a Filters button and shows tags and last change on each card', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    serveFeatures({ features: FEATURES });
    const { user, router } = open();
    await screen.findByRole('link', { name: 'Checkout' }, SLOW);
    const card = screen.getByRole('link', { name: 'Search' }).closest('li')!;
    expect(within(card).getByRole('list', { name: 'Tags' })).toBeVisible();
    expect(card.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-03T10:00:00.000Z');

    const toggle = screen.getByRole('button', { name: 'Filters' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    await user.click(await screen.findByRole('radio', { name: 'Off' }, SLOW));
    await waitFor(() => expect(router.state.location.search).toBe('?state=off'), SLOW);
    expect(screen.getByRole('button', { name: 'Filters (1 set)' })).toBeVisible();
  });
});
