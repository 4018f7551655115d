import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import type { Feature, InitialPayload } from '@vexil/core';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  projectFeatureRedirectRoute,
  renderRoute,
  stubApi,
  withSdkKeys,
} from '../../../testing/test-utils';
import { LinkFeaturePage } from './link-feature-page';

type Handlers = Parameters<typeof stubApi>[0];

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
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const mobile = projectFixture('mob', 'Mobile app', [{ key: 'beta', name: 'Beta' }]);
const checkout = feature({ key: 'checkout', name: 'Checkout' });
const search = feature({ key: 'search', name: 'Search' });
const offline = feature({
  key: 'offline',
  name: 'Offline mode',
  projectKey: 'mob',
  project: { key: 'mob', name: 'Mobile app' },
});
const FEATURES: Record<string, Feature[]> = { web: [checkout, search], mob: [offline] };

function serve(options: { payload?: InitialPayload; handlers?: Handlers } = {}) {
  const payload = options.payload ?? initialPayload({ projects: [...initialPayload().projects, mobile] });
  return stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    'GET /api/v1/projects': () => jsonResponse(200, payload.projects.map(withSdkKeys)),
    'GET /api/v1/projects/web/features': ({ url }) => {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      return jsonResponse(
        200,
        FEATURES.web!.filter((f) => f.name.toLowerCase().includes(query) || f.key.includes(query)),
      );
    },
    'GET /api/v1/projects/mob/features': () => jsonResponse(200, FEATURES.mob),
    ...options.handlers,
  });
}

async function openPage(path = '/features/link?issueKey=ABC-123') {
  const rendered = renderRoute(
    [{ path: 'features/link', element: <LinkFeaturePage /> }, projectFeatureRedirectRoute],
    path,
  );
  await screen.findByRole('heading', { name: 'Link feature' }, { timeout: 3000 });
  const form = screen.getByRole('form', { name: 'Link feature' });
  return {
    ...rendered,
    user: userEvent.setup(),
    form,
    project: within(form).getByRole('combobox', { name: /^Project/ }) as HTMLInputElement,
    submit: within(form).getByRole('button', { name: 'Link Feature' }) as HTMLButtonElement,
  };
}

/** The Feature select; it is made afresh for each project, so ask for it again after choosing one. */
const featureBox = () => screen.getByRole('combobox', { name: /^Feature/ }) as HTMLInputElement;

type User = ReturnType<typeof userEvent.setup>;

async function choose(user: User, input: HTMLInputElement, option: RegExp) {
  await user.click(input);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('Link feature page', () => {
  afterEach(() => {
    notifications.clean();
    vi.unstubAllGlobals();
  });

  it('shows the issue from the address, read-only', async () => {
    serve();
    const { form } = await openPage('/features/link?issueKey=abc-123');
    expect(
      within(form).getByText(
        (_, element) => element?.textContent === 'Issue: ABC-123' && element.tagName === 'P',
      ),
    ).toBeVisible();
    expect(within(form).queryByRole('textbox', { name: /^Issue key/ })).toBeNull();
  });

  it('asks for the issue key when the address has none', async () => {
    serve();
    const { form } = await openPage('/features/link');
    expect(within(form).getByRole('textbox', { name: /^Issue key/ })).toBeVisible();
  });

  it("offers the chosen project's features matching the typed text", async () => {
    const calls = serve();
    const { user, project } = await openPage();
    expect(featureBox().disabled).toBe(true);
    await choose(user, project, /Web shop/);
    const featureInput = featureBox();
    expect(featureInput.disabled).toBe(false);
    await user.click(featureInput);
    expect(await screen.findByRole('option', { name: /Checkout/ })).toBeVisible();
    expect(screen.getByRole('option', { name: /Search/ })).toBeVisible();
    await user.type(featureInput, 'sea');
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/api/v1/projects/web/features?query=sea')).toBe(true),
    );
    expect(screen.queryByRole('option', { name: /Checkout/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: /Search/ }));
    expect(featureInput.value).toBe('Search');
  });

  it('clears the chosen feature when the project changes', async () => {
    const calls = serve();
    const { user, project, submit } = await openPage();
    await choose(user, project, /Web shop/);
    await choose(user, featureBox(), /Checkout/);
    expect(featureBox().value).toBe('Checkout');

    await choose(user, project, /Mobile app/);
    const cleared = featureBox();
    expect(cleared.value).toBe('');
    await user.click(cleared);
    expect(await screen.findByRole('option', { name: /Offline mode/ })).toBeVisible();
    expect(screen.queryByRole('option', { name: /Checkout/ })).toBeNull();
    // The form forgot the feature too, not just the box.
    await user.keyboard('{Escape}');
    await user.click(submit);
    expect(await screen.findByText('Please select a feature')).toBeVisible();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('asks for a project and a feature', async () => {
    const calls = serve();
    const { user, submit } = await openPage();
    await user.click(submit);
    expect(await screen.findByText('Please select a project')).toBeVisible();
    expect(screen.getByText('Please select a feature')).toBeVisible();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('links the feature and opens it', async () => {
    const calls = serve({
      handlers: {
        'PUT /api/v1/features/link': () => jsonResponse(200, { ...checkout, jiraIssueKeys: ['ABC-123'] }),
      },
    });
    const { user, project, submit, router } = await openPage();
    await choose(user, project, /Web shop/);
    await choose(user, featureBox(), /Checkout/);
    await user.click(submit);

    expect(await screen.findByText('Checkout is linked to ABC-123.')).toBeVisible();
    // /projects/web/features/checkout opens the feature in a non-production environment.
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/projects/web/environments/dev/features/checkout'),
    );
    expect(calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/v1/features/link',
      body: { featureId: checkout.id, jiraIssueKey: 'ABC-123' },
    });
  });

  it('shows a failure in the form and stops the spinner', async () => {
    let answer: (response: Response) => void = () => undefined;
    serve({
      handlers: {
        'PUT /api/v1/features/link': () => new Promise<Response>((resolve) => (answer = resolve)),
      },
    });
    const { user, project, submit, form, router } = await openPage();
    await choose(user, project, /Web shop/);
    await choose(user, featureBox(), /Checkout/);
    await user.click(submit);
    await waitFor(() => expect(submit.getAttribute('data-loading')).toBe('true'));

    answer(jsonResponse(403, { title: 'You do not have permission to change this feature.' }));
    expect((await within(form).findByRole('alert')).textContent).toContain(
      'You do not have permission to change this feature.',
    );
    await waitFor(() => expect(submit.getAttribute('data-loading')).toBeNull());
    expect(router.state.location.pathname).toBe('/features/link');
  });

  it('disables Link Feature for users who may not create features', async () => {
    const payload = initialPayload();
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    serve({ payload });
    const { submit } = await openPage();
    expect(submit.disabled).toBe(true);
    expect(
      screen.getByText(
        'You do not have permission to create features. Ask an organisation admin for editor rights.',
      ),
    ).toBeVisible();
  });

  it('goes back home on Cancel', async () => {
    serve();
    const { user, router } = await openPage();
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(router.state.location.pathname).toBe('/');
  });
});
