import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { normaliseFeatureKey, uniqueFeatureKey, type Feature, type InitialPayload } from '@vexil/core';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  projectFeatureRedirectRoute,
  renderRoute,
  stubApi,
  withSdkKeys,
} from '../../../testing/test-utils';
import { CreateFeaturePage } from './create-feature-page';

type Handlers = Parameters<typeof stubApi>[0];

function feature(overrides: Partial<Feature> & Pick<Feature, 'key' | 'name'>): Feature {
  return {
    id: '00000000-0000-4000-9000-000000000001',
    description: '',
    permanent: false,
    variants: [
      { key: 'on', name: 'On', description: '' },
      { key: 'off', name: 'Off', description: '' },
    ],
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
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const mobile = projectFixture('mob', 'Mobile app', [{ key: 'beta', name: 'Beta' }]);

/** The keys each project's features have: "checkout" is taken in web. */
const TAKEN: Record<string, string[]> = { web: ['checkout'], mob: [] };

/** Answers GET /api/v1/projects/{projectKey}/feature-key as the server does, against `taken`. */
function keyCheck(taken: string[]): Handlers[string] {
  return ({ url }) => {
    const key = normaliseFeatureKey(url.searchParams.get('key') ?? '');
    return jsonResponse(200, { key, taken: taken.includes(key), freeKey: uniqueFeatureKey(key, taken) });
  };
}

/** The API of the page: the session, the project search and each project's key check. */
function serve(options: { payload?: InitialPayload; handlers?: Handlers } = {}) {
  const payload = options.payload ?? initialPayload({ projects: [...initialPayload().projects, mobile] });
  return stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/projects': ({ url }) => {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      return jsonResponse(
        200,
        payload.projects
          .filter((p) => p.name.toLowerCase().includes(query) || p.key.includes(query))
          .map(withSdkKeys),
      );
    },
    'GET /api/v1/projects/web/feature-key': keyCheck(TAKEN.web!),
    'GET /api/v1/projects/mob/feature-key': keyCheck(TAKEN.mob!),
    ...options.handlers,
  });
}

function fields() {
  const form = screen.getByRole('form', { name: 'Create feature' });
  return {
    form,
    project: within(form).getByRole('combobox', { name: /^Project/ }) as HTMLInputElement,
    name: within(form).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement,
    key: within(form).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement,
    issue: within(form).getByRole('textbox', { name: /^Issue key/ }) as HTMLInputElement,
    submit: within(form).getByRole('button', { name: 'Create Feature' }),
  };
}

async function openPage(path = '/features/create?project=web') {
  const rendered = renderRoute(
    [{ path: 'features/create', element: <CreateFeaturePage /> }, projectFeatureRedirectRoute],
    path,
  );
  await screen.findByRole('heading', { name: 'Create feature' }, { timeout: 3000 });
  return { ...rendered, user: userEvent.setup(), ...fields() };
}

describe('Create feature page', () => {
  afterEach(() => {
    notifications.clean();
    vi.unstubAllGlobals();
  });

  it('derives the key from the name until the key is edited', async () => {
    serve();
    const { user, name, key } = await openPage('/features/create?project=mob');
    await user.type(name, 'New Checkout!');
    await waitFor(() => expect(key.value).toBe('new-checkout'));
    await user.clear(key);
    await user.type(key, 'Checkout V2');
    await user.tab();
    expect(key.value).toBe('checkout-v2');
    await user.type(name, ' page');
    expect(key.value).toBe('checkout-v2');
  });

  it("suffixes a key the chosen project's features already use", async () => {
    const calls = serve();
    const { user, name, key, project } = await openPage();
    expect(project.value).toBe('Web shop');
    await user.type(name, 'Checkout');
    await waitFor(() => expect(key.value).toBe('checkout1'));
    expect(calls.some((call) => call.path === '/api/v1/projects/web/feature-key?key=checkout')).toBe(true);
  });

  it('normalises a typed key as it is typed, keeping a separator for the next word', async () => {
    serve();
    const { user, key } = await openPage('/features/create?project=mob');
    await user.type(key, 'Bad Key');
    expect(key.value).toBe('bad-key');
    await user.type(key, ' With Spaces!!');
    expect(key.value).toBe('bad-key-with-spaces-');
    await user.tab();
    expect(key.value).toBe('bad-key-with-spaces');
  });

  it('says when a typed key is taken, offers the free one and creates nothing until it changes', async () => {
    const calls = serve();
    const { user, name, key, submit } = await openPage();
    await user.type(name, 'Card');
    await user.clear(key);
    await user.type(key, 'checkout');
    const message = await screen.findByText(
      /A feature with the key "checkout" already exists in this project\./,
    );
    expect(message).toBeVisible();
    await user.click(submit);
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Use checkout1' }));
    expect(key.value).toBe('checkout1');
    await waitFor(() => expect(screen.queryByText(/already exists/)).toBeNull());
  });

  it('does not create a key that was taken since it was shown: it shows the next free key instead', async () => {
    const taken = ['checkout'];
    const calls = serve({ handlers: { 'GET /api/v1/projects/web/feature-key': keyCheck(taken) } });
    const { user, name, key, submit } = await openPage();
    await user.type(name, 'Checkout');
    await waitFor(() => expect(key.value).toBe('checkout1'));
    taken.push('checkout1');
    await user.click(submit);
    await waitFor(() => expect(key.value).toBe('checkout2'));
    expect(
      screen.getByText('A feature with the key "checkout1" already exists in this project.'),
    ).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('picks the project from the server as the user types', async () => {
    const calls = serve();
    const { user, project, name, key } = await openPage('/features/create');
    expect(project.value).toBe('');
    await user.type(project, 'web');
    await waitFor(() => expect(calls.some((call) => call.path === '/api/v1/projects?query=web')).toBe(true));
    expect(screen.queryByRole('option', { name: /Mobile app/ })).toBeNull();
    await user.click(await screen.findByRole('option', { name: /Web shop/ }));
    expect(project.value).toBe('Web shop');
    await user.type(name, 'Checkout');
    await waitFor(() => expect(key.value).toBe('checkout1'));
  });

  it('prefills the issue key from the address', async () => {
    serve();
    const { issue } = await openPage('/features/create?issueKey=ABC-123');
    expect(issue.value).toBe('ABC-123');
  });

  it('asks for a project, a name and a key before saving', async () => {
    const calls = serve();
    const { user, submit } = await openPage('/features/create');
    await user.click(submit);
    expect(await screen.findByText('Please select a project')).toBeVisible();
    expect(screen.getByText('Name is required')).toBeVisible();
    expect(screen.getByText('Key is required')).toBeVisible();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('creates the feature with the key shown, says so and opens it outside production when no environment of the project was used before', async () => {
    const calls = serve({
      handlers: {
        'POST /api/v1/projects/web/features': ({ body }) =>
          jsonResponse(
            201,
            feature({ ...(body as { name: string; key: string }), jiraIssueKeys: ['ABC-123'] }),
          ),
      },
    });
    const { user, name, key, submit, router } = await openPage(
      '/features/create?project=web&issueKey=abc-123',
    );
    await user.type(name, 'Checkout');
    await waitFor(() => expect(key.value).toBe('checkout1'));
    await user.click(submit);

    expect(await screen.findByText('Checkout saved.')).toBeVisible();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features/checkout1'),
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Checkout',
      key: 'checkout1',
      jiraIssueKeys: ['ABC-123'],
    });
  });

  it('sends no issue key when none is given', async () => {
    const calls = serve({
      handlers: {
        'POST /api/v1/projects/mob/features': () =>
          jsonResponse(201, feature({ key: 'search', name: 'Search', projectKey: 'mob' })),
      },
    });
    const { user, name, key, submit, router } = await openPage('/features/create?project=mob');
    await user.type(name, 'Search');
    await waitFor(() => expect(key.value).toBe('search'));
    await user.click(submit);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/mob/environments/beta/features/search'),
    );
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      name: 'Search',
      key: 'search',
      jiraIssueKeys: [],
    });
  });

  it("shows the server's message in the form and its field errors on the fields", async () => {
    const title = 'Only 10 feature(s) allowed.';
    serve({
      handlers: {
        'POST /api/v1/projects/web/features': () =>
          jsonResponse(400, { title, errors: [{ field: 'name', message: 'That name is too plain.' }] }),
      },
    });
    const { user, name, submit, form, router } = await openPage();
    await user.type(name, 'Plain');
    await user.click(submit);
    expect((await within(form).findByRole('alert')).textContent).toContain(title);
    expect(within(form).getByText('That name is too plain.')).toBeVisible();
    // The form shows it: no toast repeats it.
    expect(screen.getAllByText(title)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/features/create');
  });

  it('offers an upgrade when the plan refuses one more feature', async () => {
    serve({
      handlers: {
        'POST /api/v1/projects/web/features': () =>
          jsonResponse(400, { title: 'Only 10 feature(s) allowed.', code: 'limit_reached' }),
      },
    });
    const { user, name, submit, form } = await openPage();
    await user.type(name, 'One too many');
    await user.click(submit);
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('Only 10 feature(s) allowed. Upgrade your plan');
    expect(within(alert).getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('says so when the server cannot be reached', async () => {
    serve({
      handlers: {
        'POST /api/v1/projects/web/features': () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const { user, name, submit, form } = await openPage();
    await user.type(name, 'Offline');
    await user.click(submit);
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'We could not contact the server, please try again.',
    );
  });

  it('is disabled, with the reason, for users who may not create features', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serve({ payload });
    const { name, key, project, submit } = await openPage();
    expect(
      screen.getByText(
        'You do not have permission to create features. Ask an organisation admin for editor rights.',
      ),
    ).toBeVisible();
    for (const field of [name, key, project]) expect(field.disabled).toBe(true);
    expect((submit as HTMLButtonElement).disabled).toBe(true);
  });

  it('goes back home on Cancel', async () => {
    serve();
    const { user, router } = await openPage();
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/');
  });
});
