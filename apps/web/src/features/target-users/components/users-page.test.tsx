import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { AUTHORITIES } from '@vexil/core';
import { formatDate } from '../../../lib/format';
import { jsonResponse } from '../../../testing/test-utils';
import {
  LIST_PATH,
  PRODUCTION,
  listRequests,
  renderUsersPage,
  reportedUser,
  resetOverlays,
  serveUsers,
  userWith,
} from '../../../testing/target-users-test-server';

const ada = reportedUser('ada', { tier: 'gold', age: 31, beta: true, roles: ['admin', 'billing'] }, 3);
const grace = reportedUser('grace@example.com', { tier: 'silver' }, 90);

const rows = () =>
  within(screen.getByRole('table', { name: 'Target Users' }))
    .getAllByRole('row')
    .slice(1);
const chipsOf = (row: HTMLElement) =>
  within(row)
    .getAllByTestId('attribute-chip')
    .map((chip) => chip.textContent);

describe('Users page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('names the environment and explains where users and their attributes come from', async () => {
    serveUsers({ users: [ada] });
    renderUsersPage();

    expect(screen.getByRole('heading', { name: 'Users' })).toBeVisible();
    expect(screen.getByText('Users your applications evaluated features for in Development')).toBeVisible();
    expect(
      screen.getByText(/Users appear here when an SDK evaluates features or sends events/),
    ).toBeVisible();
    expect(screen.getByText(/Attributes cannot be edited here/)).toBeVisible();
    await screen.findByText('ada');
  });

  it('lists each user id with their attributes as "key: value" chips and when they were last seen', async () => {
    serveUsers({ users: [grace, ada] });
    const { user } = renderUsersPage();

    await screen.findByText('ada');
    const [first, second] = rows();
    // Most recently seen first, as the server orders them.
    expect(within(first!).getByText('ada')).toBeVisible();
    expect(chipsOf(first!)).toEqual(['age:31', 'beta:true', 'roles:admin, billing', 'tier:gold']);
    expect(within(second!).getByText('grace@example.com')).toBeVisible();
    expect(chipsOf(second!)).toEqual(['tier:silver']);
    expect(within(second!).getByRole('button', { name: 'Delete grace@example.com' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();

    const seen = within(first!).getByText('3 minutes ago');
    await user.hover(seen);
    expect(await screen.findByRole('tooltip', { name: formatDate(ada.lastSeenDate) })).toBeVisible();
    expect(within(second!).getByText('2 hours ago')).toBeVisible();
  });

  it('cuts a long attribute value short and shows it whole in a tooltip', async () => {
    const token = 'x'.repeat(70);
    serveUsers({ users: [reportedUser('ada', { token, nickname: null })] });
    const { user } = renderUsersPage();

    await screen.findByText('ada');
    const [chip, tokenChip] = within(rows()[0]!).getAllByTestId('attribute-chip');
    expect(chip!.textContent).toBe('nickname:null');
    expect(tokenChip!.textContent).toBe(`token:${'x'.repeat(39)}…`);
    await user.hover(tokenChip!);
    expect(await screen.findByRole('tooltip', { name: `token: ${token}` })).toBeVisible();
  });

  it('shows the first attributes of a user with many, and the rest on request', async () => {
    const attributes = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`a${i + 10}`, i]));
    serveUsers({ users: [reportedUser('ada', attributes)] });
    const { user } = renderUsersPage();

    await screen.findByText('ada');
    expect(within(rows()[0]!).getAllByTestId('attribute-chip')).toHaveLength(8);
    await user.click(screen.getByRole('button', { name: '+3 more' }));
    expect(within(rows()[0]!).getAllByTestId('attribute-chip')).toHaveLength(11);
    expect(screen.getByRole('button', { name: 'Show fewer' })).toBeVisible();
  });

  it('says how users get here when the environment has none', async () => {
    serveUsers();
    renderUsersPage();

    expect(
      await screen.findByText('No users yet. Users appear here when an SDK evaluates features for them.'),
    ).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows skeleton rows while loading and a retry when loading fails', async () => {
    let fail = true;
    serveUsers({
      handlers: {
        [`GET ${LIST_PATH}`]: () =>
          fail
            ? jsonResponse(500, { title: 'Something went wrong on our side.' })
            : jsonResponse(200, { content: [ada], last: true, page: 0, pageSize: 50, totalElements: 1 }),
      },
    });
    const { user } = renderUsersPage();
    expect(screen.getAllByTestId('user-skeleton-row').length).toBeGreaterThan(0);

    const alert = (await screen.findByText('We could not load the users.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Something went wrong on our side.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('ada')).toBeVisible();
  });

  it('searches ids through ?q= and offers to clear a search that finds nothing', async () => {
    const { calls } = serveUsers({ users: [ada, grace] });
    const { user, router } = renderUsersPage();
    await screen.findByText('grace@example.com');

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'grace');
    await waitFor(() => expect(router.state.location.search).toBe('?q=grace'));
    await waitFor(() => expect(screen.queryByText('ada')).toBeNull());
    expect(rows()).toHaveLength(1);
    const last = listRequests(calls).at(-1)!;
    expect(last.get('query')).toBe('grace');
    expect(last.get('page')).toBe('0');
    // Debounced: one request for the whole word, not one per letter.
    expect(listRequests(calls).filter((params) => params.has('query'))).toHaveLength(1);

    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'nobody');
    expect(await screen.findByText('No users have an id containing “nobody”.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByText('ada')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });

  it('starts from the search and page in the address', async () => {
    const { calls } = serveUsers({ users: [ada, grace] });
    renderUsersPage({}, '?q=ada');

    expect(await screen.findByText('ada')).toBeVisible();
    expect((screen.getByRole('searchbox', { name: 'Search users' }) as HTMLInputElement).value).toBe('ada');
    expect(listRequests(calls)[0]!.toString()).toBe('query=ada&page=0&pageSize=50');
  });

  // Three pages of 50 rows in jsdom: about 5 s on a busy machine, past the default limit.
  it('pages through 50 users at a time', { timeout: 20_000 }, async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      reportedUser(`user-${String(i).padStart(3, '0')}`, {}, i),
    );
    const { calls } = serveUsers({ users: many });
    const { user, router } = renderUsersPage();

    await screen.findByText('user-000');
    expect(rows()).toHaveLength(50);
    expect(screen.getByText('Showing 1–50 of 120')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('user-050')).toBeVisible();
    expect(screen.getByText('Showing 51–100 of 120')).toBeVisible();
    expect(router.state.location.search).toBe('?page=2');
    expect(listRequests(calls).at(-1)!.get('page')).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Showing 101–120 of 120')).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
  });

  it('forgets a user after confirmation, with their id encoded, and says "User removed."', async () => {
    const { calls } = serveUsers({ users: [ada, grace] });
    const { user } = renderUsersPage();

    await user.click(await screen.findByRole('button', { name: 'Delete grace@example.com' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    expect(
      within(dialog).getByText(
        'Forget the user "grace@example.com"? Their attributes are removed; they reappear if an SDK reports them again.',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete grace@example.com' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete User' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));

    expect(await screen.findByText('User removed.')).toBeVisible();
    expect(calls.find((call) => call.method === 'DELETE')!.path).toBe(`${LIST_PATH}/grace%40example.com`);
    await waitFor(() => expect(screen.queryByText('grace@example.com')).toBeNull());
    expect(rows()).toHaveLength(1);
  });

  it('encodes ids that contain slashes and spaces', async () => {
    const odd = reportedUser('team/a b', { tier: 'gold' });
    const { calls } = serveUsers({ users: [odd] });
    const { user } = renderUsersPage();

    await user.click(await screen.findByRole('button', { name: 'Delete team/a b' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', {
        name: 'Delete user',
      }),
    );
    expect(await screen.findByText('User removed.')).toBeVisible();
    expect(calls.find((call) => call.method === 'DELETE')!.path).toBe(`${LIST_PATH}/team%2Fa%20b`);
  });

  it("shows the server's refusal and keeps the user", async () => {
    const refusal = 'You do not have permission to remove users in this environment.';
    serveUsers({
      users: [ada],
      handlers: { [`DELETE ${LIST_PATH}/ada`]: () => jsonResponse(403, { title: refusal }) },
    });
    const { user } = renderUsersPage();

    await user.click(await screen.findByRole('button', { name: 'Delete ada' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Delete User' })).getByRole('button', {
        name: 'Delete user',
      }),
    );

    expect(await screen.findByText(refusal)).toBeVisible();
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(screen.queryByText('User removed.')).toBeNull();
    expect(screen.getByText('ada')).toBeVisible();
  });
});

describe('Users page permissions', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('disables Delete for a read-only user and says why', async () => {
    const { calls } = serveUsers({ users: [ada] });
    const { user } = renderUsersPage({ user: userWith(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER) });

    const remove = await screen.findByRole('button', { name: 'Delete ada' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await user.hover(remove.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'You do not have permission to remove users in this environment.',
      }),
    ).toBeVisible();
    await user.click(remove);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  });

  it('asks for a production editor in production, and lets one delete there', async () => {
    const productionList = '/api/v1/projects/web/environments/production/users';
    const page = { content: [ada], last: true, page: 0, pageSize: 50, totalElements: 1 };
    serveUsers({ handlers: { [`GET ${productionList}`]: () => jsonResponse(200, page) } });
    const editor = renderUsersPage({
      environment: PRODUCTION,
      user: userWith(AUTHORITIES.ROLE_ORGANISATION_EDITOR),
    });

    const remove = await screen.findByRole('button', { name: 'Delete ada' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await editor.user.hover(remove.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Only a production editor can remove users in a production environment.',
      }),
    ).toBeVisible();
    editor.unmount();

    renderUsersPage({ environment: PRODUCTION, user: userWith(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR) });
    expect(((await screen.findByRole('button', { name: 'Delete ada' })) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});
