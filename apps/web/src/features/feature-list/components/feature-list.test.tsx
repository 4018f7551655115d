import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialPayload, jsonResponse } from '../../../testing/test-utils';
import type { HomeFeature } from '@vexil/core';
import {
  featureFixture,
  listRequests,
  manyFeatures,
  renderFeatureList,
  resetOverlays,
  serveFeatures,
} from '../../../testing/feature-list-test-server';

const LIST = '/projects/web/environments/dev/features';
/** For pages of 50 and 100 rows, which take a while to render in jsdom. */
const SLOW = { timeout: 8000 };

function open(path = LIST) {
  const rendered = renderFeatureList(path);
  return { ...rendered, user: userEvent.setup() };
}

const rows = () =>
  within(screen.getByRole('table', { name: /^Features in/ }))
    .getAllByRole('row')
    .slice(1);

const checkout = featureFixture(
  1,
  { name: 'Checkout', key: 'checkout', description: 'The new one-page checkout' },
  {
    dev: {
      enabled: true,
      available: false,
      trafficStatus: 'inactive',
      staleDays: 9,
      targetingStatus: 'single',
      rulesDescription: 'Everyone gets On.',
    },
  },
);

describe('Feature list', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it("shows each feature's switch, name, key, description and status", async () => {
    serveFeatures({ features: [checkout] });
    const { user } = open();

    const name = await screen.findByRole('link', { name: 'Checkout' });
    expect(name.getAttribute('href')).toBe(`${LIST}/checkout`);
    expect(screen.getByRole('heading', { name: 'Features' })).toBeVisible();
    expect(screen.getByText('Development environment of Web shop')).toBeVisible();
    const [row] = rows();
    const cells = within(row!);
    expect(
      (cells.getByRole('switch', { name: 'Checkout on in Development' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(cells.getByText('checkout')).toBeVisible();
    expect(cells.getByText('The new one-page checkout')).toBeVisible();
    expect(cells.getByText('Everyone gets On.')).toBeVisible();
    expect(
      cells.getByRole('img', { name: 'Availability: Not seen by an SDK in this environment yet' }),
    ).toBeVisible();
    expect(cells.getByRole('img', { name: 'Traffic: No impressions for 9 days' })).toBeVisible();
    const targeting = cells.getByRole('img', { name: 'Targeting: 100% On' });

    await user.hover(targeting);
    expect(await screen.findByRole('tooltip', { name: '100% On' })).toBeVisible();
  });

  it('shows each feature as a card on a phone, with the same link, switch and status', async () => {
    // A window narrower than the `sm` breakpoint: only max-width queries match.
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
    serveFeatures({ features: [checkout] });
    open();

    await screen.findByRole('link', { name: 'Checkout' });
    const list = screen.getByRole('list', { name: 'Features in Development' });
    expect(screen.queryByRole('table', { name: /^Features in/ })).toBeNull();
    const [card] = within(list).getAllByRole('listitem');
    const content = within(card!);
    expect(content.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe(`${LIST}/checkout`);
    expect(
      (content.getByRole('switch', { name: 'Checkout on in Development' }) as HTMLInputElement).checked,
    ).toBe(true);
    expect(content.getByText('checkout')).toBeVisible();
    expect(content.getByText('The new one-page checkout')).toBeVisible();
    expect(content.getByText('Everyone gets On.')).toBeVisible();
    expect(content.getByRole('img', { name: 'Targeting: 100% On' })).toBeVisible();
  });

  it('shows skeleton rows while loading and a retry when loading fails', async () => {
    let fail = true;
    serveFeatures({
      features: [checkout],
      handlers: {
        'GET /api/v1/projects/web/environments/dev/features': () =>
          fail
            ? jsonResponse(500, { title: 'Something went wrong on our side.' })
            : jsonResponse(200, { content: [checkout], last: true, page: 0, pageSize: 50, totalElements: 1 }),
      },
    });
    const { user } = open();
    expect((await screen.findAllByTestId('feature-skeleton-row')).length).toBeGreaterThan(0);

    const alert = (await screen.findByText('We could not load the features.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Checkout' })).toBeVisible();
  });

  // Pages of 50 and 100 rows take a few seconds to render in jsdom.
  it('shows 50 features a page and asks for page=1 for page 2', { timeout: 20_000 }, async () => {
    const { calls } = serveFeatures({ features: manyFeatures(120) });
    const { user, router } = open();

    await screen.findByRole('link', { name: 'Feature 001' }, SLOW);
    expect(rows()).toHaveLength(50);
    expect(screen.getByText('Showing 1–50 of 120')).toBeInTheDocument();
    expect(listRequests(calls)[0]!.get('page')).toBe('0');
    expect(listRequests(calls)[0]!.get('pageSize')).toBe('50');

    await user.click(screen.getByRole('button', { name: 'Page 2' }));

    expect(await screen.findByRole('link', { name: 'Feature 051' }, SLOW)).toBeInTheDocument();
    expect(screen.getByText('Showing 51–100 of 120')).toBeInTheDocument();
    expect(listRequests(calls).at(-1)!.get('page')).toBe('1');
    expect(router.state.location.search).toBe('?page=2');

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 101–120 of 120', {}, SLOW)).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
  });

  it(
    'asks for pageSize=100 when 100 a page is chosen, from the first page',
    { timeout: 20_000 },
    async () => {
      const { calls } = serveFeatures({ features: manyFeatures(120) });
      const { user, router } = open(`${LIST}?page=2`);
      await screen.findByRole('link', { name: 'Feature 051' }, SLOW);

      await user.selectOptions(screen.getByRole('combobox', { name: 'Per page' }), '100');

      expect(await screen.findByText('Showing 1–100 of 120', {}, SLOW)).toBeInTheDocument();
      expect(rows()).toHaveLength(100);
      const last = listRequests(calls).at(-1)!;
      expect([last.get('page'), last.get('pageSize')]).toEqual(['0', '100']);
      expect(router.state.location.search).toBe('?size=100');
    },
  );

  it('searches as the user types, from the first page, and keeps the search in the address', async () => {
    const features: HomeFeature[] = [checkout, ...manyFeatures(60).slice(1)];
    const { calls } = serveFeatures({ features });
    const { router } = open(`${LIST}?page=2`);
    await screen.findByRole('link', { name: 'Feature 051' });
    // Keystrokes without pauses, as a quick typist makes them.
    const user = userEvent.setup({ delay: null });

    await user.type(screen.getByRole('searchbox', { name: 'Search features' }), 'check');

    await waitFor(() => expect(router.state.location.search).toBe('?q=check'));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Checkout' })).toBeInTheDocument();
    const searches = listRequests(calls).filter((params) => params.has('query'));
    // Debounced: one request for the whole word, not one per key.
    expect(searches.map((params) => [params.get('query'), params.get('page')])).toEqual([['check', '0']]);
  });

  it('reads the search from the address', async () => {
    const { calls } = serveFeatures({ features: [checkout] });
    open(`${LIST}?q=check`);
    expect(await screen.findByRole('link', { name: 'Checkout' })).toBeVisible();
    expect((screen.getByRole('searchbox', { name: 'Search features' }) as HTMLInputElement).value).toBe(
      'check',
    );
    expect(listRequests(calls)[0]!.get('query')).toBe('check');
  });

  it('says when nothing matches the search', async () => {
    serveFeatures({ features: [checkout] });
    const { user } = open(`${LIST}?q=zzz`);
    expect(await screen.findByText('No features match “zzz”.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('link', { name: 'Checkout' })).toBeVisible();
  });

  it('invites to create the first feature when there are none', async () => {
    serveFeatures({ features: [] });
    const { user } = open();
    expect(await screen.findByText('No features yet. Create one to get started.')).toBeVisible();
    const buttons = screen.getAllByRole('button', { name: 'New Feature' });
    expect(buttons).toHaveLength(2);
    await user.click(buttons[1]!);
    expect(await screen.findByRole('dialog', { name: 'New feature' })).toBeVisible();
  });

  it('creates a feature whose key follows its name, made unique in the project, then goes to it', async () => {
    const { calls } = serveFeatures({
      features: [checkout],
      handlers: {
        'POST /api/v1/projects/web/features': ({ body }) => {
          const input = body as { name: string; key: string; description: string };
          return jsonResponse(
            201,
            featureFixture(2, { name: input.name, key: input.key, description: input.description }),
          );
        },
      },
    });
    const { user, router } = open();
    await screen.findByRole('link', { name: 'Checkout' });

    await user.click(screen.getByRole('button', { name: 'New Feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    const key = within(dialog).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement;
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Checkout!');
    expect(key.value).toBe('checkout');
    // "checkout" is taken: the key shown becomes the one that will be created.
    await waitFor(() => expect(key.value).toBe('checkout1'));
    await user.type(within(dialog).getByRole('textbox', { name: /^Description/ }), 'A second one');
    await user.click(within(dialog).getByRole('button', { name: 'Create Feature' }));

    expect(await screen.findByText('Checkout! saved.')).toBeVisible();
    await waitFor(() => expect(router.state.location.pathname).toBe(`${LIST}/checkout1`));
    expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
      name: 'Checkout!',
      key: 'checkout1',
      description: 'A second one',
      variants: [
        { key: 'on', name: 'On' },
        { key: 'off', name: 'Off' },
      ],
    });
  });

  it('shows a typed key normalised as it is typed, and refuses a taken one before sending it', async () => {
    const { calls } = serveFeatures({ features: [checkout] });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'New Feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    const key = within(dialog).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement;
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Anything');
    await user.clear(key);
    await user.type(key, 'Bad Key With Spaces!!');
    expect(key.value).toBe('bad-key-with-spaces-');
    await user.tab();
    expect(key.value).toBe('bad-key-with-spaces');

    await user.clear(key);
    await user.type(key, 'Checkout');
    expect(
      await within(dialog).findByText(/A feature with the key "checkout" already exists in this project\./),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Create Feature' }));
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Use checkout1' }));
    expect(key.value).toBe('checkout1');
  });

  it('requires a name and a key for a new feature', async () => {
    const { calls } = serveFeatures({ features: [checkout] });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'New Feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Feature' }));
    expect(await within(dialog).findByText('Name is required')).toBeVisible();
    expect(within(dialog).getByText('Key is required')).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("offers an upgrade when the plan's feature limit is reached, known by its code", async () => {
    let answer = { title: 'Only 10 feature(s) allowed.', code: 'limit_reached' };
    serveFeatures({
      features: [checkout],
      handlers: { 'POST /api/v1/projects/web/features': () => jsonResponse(400, answer) },
    });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'New Feature' }));
    const dialog = await screen.findByRole('dialog', { name: 'New feature' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Dark mode');
    await user.click(within(dialog).getByRole('button', { name: 'Create Feature' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Only 10 feature(s) allowed.');
    expect(within(alert).getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );

    // Other refusals get no upgrade link, however they are worded.
    answer = { title: 'Only 10 feature(s) allowed.', code: 'invalid' };
    await user.click(within(dialog).getByRole('button', { name: 'Create Feature' }));
    await waitFor(() => expect(within(dialog).queryByRole('link', { name: 'Upgrade your plan' })).toBeNull());
    expect(within(dialog).getByRole('alert').textContent).toContain('Only 10 feature(s) allowed.');
  });

  it('disables New Feature for read-only users, saying why', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serveFeatures({ payload, features: [checkout] });
    open();
    await screen.findByRole('link', { name: 'Checkout' });
    expect((screen.getByRole('button', { name: 'New Feature' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByLabelText('You do not have permission to create features.')).toBeVisible();
  });

  it("opens the environment's Api keys, with Rotate for organisation admins", async () => {
    const { calls, project } = serveFeatures({ features: [checkout] });
    const { user } = open();
    await screen.findByRole('link', { name: 'Checkout' });

    await user.click(screen.getByRole('button', { name: 'Api Keys' }));

    const dialog = await screen.findByRole('dialog', { name: 'Api keys · Development' });
    const dev = project.environments.find((environment) => environment.key === 'dev')!;
    expect(within(dialog).getByDisplayValue(dev.apiKey)).toBeVisible();
    expect(within(dialog).getByDisplayValue(dev.jsApiKey)).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Rotate Server Key' })).toBeVisible();
    expect(calls.some((call) => call.path === '/api/v1/environments/web/dev')).toBe(true);
  });

  it('offers no rotation of Api keys to others', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_EDITOR'];
    serveFeatures({ payload, features: [checkout] });
    const { user } = open();
    await user.click(await screen.findByRole('button', { name: 'Api Keys' }));
    const dialog = await screen.findByRole('dialog', { name: 'Api keys · Development' });
    expect(within(dialog).queryByRole('button', { name: /Rotate/ })).toBeNull();
  });

  it('opens the detail modal of ?key= and removes key from the address when closed', async () => {
    serveFeatures({
      features: [checkout],
      handlers: { 'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, checkout) },
    });
    const { user, router } = open(`${LIST}?q=check&key=checkout`);

    const dialog = await screen.findByRole('dialog', { name: 'Feature summary' });
    expect(await within(dialog).findByRole('heading', { name: 'Checkout' })).toBeVisible();
    expect(within(dialog).getByText('checkout')).toBeVisible();
    expect(within(dialog).getByText('The new one-page checkout')).toBeVisible();
    expect(within(dialog).getByText('On')).toBeVisible();
    expect(within(dialog).getByText('Everyone gets On.')).toBeVisible();
    expect(within(dialog).getByRole('link', { name: 'Open feature' }).getAttribute('href')).toBe(
      `${LIST}/checkout`,
    );

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.search).toBe('?q=check');
  });

  it('goes to the feature from the detail modal', async () => {
    serveFeatures({
      features: [checkout],
      handlers: { 'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, checkout) },
    });
    const { user, router } = open(`${LIST}?key=checkout`);
    const dialog = await screen.findByRole('dialog', { name: 'Feature summary' });
    await user.click(await within(dialog).findByRole('link', { name: 'Open feature' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${LIST}/checkout`));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Leaving closes the modal without sending the address back to the list.
    expect(router.state.location.pathname).toBe(`${LIST}/checkout`);
  });

  it('says so when ?key= names no feature', async () => {
    serveFeatures({ features: [checkout] });
    open(`${LIST}?key=nope`);
    const dialog = await screen.findByRole('dialog', { name: 'Feature summary' });
    expect(
      await within(dialog).findByText('There is no feature with the key “nope” in this project.'),
    ).toBeVisible();
  });
});
