import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Feature, FeatureControl, InitialPayload } from '@vexil/core';
import {
  auditPageFixture,
  controlFixture,
  DETAIL,
  featureFixture,
  impressionsFixture,
  payloadFor,
  resetOverlays,
} from '../../testing/test-fixtures';
import {
  environmentRoute,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
} from '../../testing/test-utils';
import { FeatureDetailRoute } from './feature-detail-route';

type Handlers = Parameters<typeof stubApi>[0];

function render(
  path: string,
  options: { feature?: () => Feature; handlers?: Handlers; session?: InitialPayload } = {},
) {
  const calls = stubApi({
    'GET /api/v1/projects/web/features/checkout': () =>
      jsonResponse(200, (options.feature ?? featureFixture)()),
    'GET /api/v1/projects/web/targets': () => jsonResponse(200, []),
    'GET /api/v2/segments/web/production': () => jsonResponse(200, []),
    'GET /api/v2/segments/web/dev': () => jsonResponse(200, []),
    'GET /api/v1/variant-daily-impressions': () => jsonResponse(200, impressionsFixture()),
    'GET /api/v1/audit-items': () => jsonResponse(200, auditPageFixture(0, [])),
    ...options.handlers,
  });
  const rendered = renderRoute(
    environmentRoute([
      { path: 'features/:featureKey/:featureDetailPageTab?', element: <FeatureDetailRoute /> },
    ]),
    path,
    { session: options.session ?? initialPayload() },
  );
  return { ...rendered, calls, pathname: () => rendered.router.state.location.pathname };
}

/**
 * A server holding the checkout feature whose switch calls change it (or answer `refuse` when given),
 * and the switches of the header and the Overview for `environment`.
 */
function switchServer(refuse?: () => Response | Promise<Response>) {
  let feature = featureFixture();
  const handlers: Handlers = {};
  for (const key of ['production', 'dev']) {
    const id = controlFixture(key).id;
    handlers[`PUT /api/v1/feature-controls/${id}/enabled`] = ({ body }) => {
      if (refuse) return refuse();
      const { enabled } = body as { enabled: boolean };
      const control: FeatureControl = {
        ...feature.controls[key]!,
        enabled,
        lastModifiedDate: new Date(Date.UTC(2026, 3, 1)).toISOString(),
      };
      feature = { ...feature, controls: { ...feature.controls, [key]: control } };
      return jsonResponse(200, control);
    };
  }
  return { handlers, feature: () => feature };
}

const headerSwitch = async (environment: string) =>
  within(await screen.findByRole('group', { name: `State in ${environment}` })).getByRole('switch', {
    name: `New checkout on in ${environment}`,
  }) as HTMLInputElement;
const overviewSwitch = async (environment: string) => {
  const table = await screen.findByRole('table', { name: 'The feature in each environment' });
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByRole('link', { name: environment }))!;
  return within(row).getByRole('switch', { name: `New checkout on in ${environment}` }) as HTMLInputElement;
};

describe('/projects/:projectKey/environments/:environmentKey/features/:featureKey/:featureDetailPageTab?', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows the targeting of the environment in the Targeting tab', async () => {
    const { pathname } = render(`${DETAIL}/targeting`);
    expect(await screen.findByRole('heading', { name: 'Targeting for Production' })).toBeVisible();
    expect(screen.getByRole('tab', { name: 'Targeting', selected: true })).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Add rule' })).toBeVisible();
    expect(pathname()).toBe(`${DETAIL}/targeting`);
  });

  it('goes to the same feature and tab in the environment chosen in the breadcrumb', async () => {
    const { pathname } = render(`${DETAIL}/targeting`);
    const breadcrumb = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    const user = userEvent.setup();
    await user.click(within(breadcrumb).getByRole('button', { name: 'Environment: Production' }));
    await user.click(await screen.findByRole('menuitem', { name: /Development/ }));
    expect(await screen.findByRole('heading', { name: 'Targeting for Development' })).toBeVisible();
    expect(pathname()).toBe('/projects/web/environments/dev/features/checkout/targeting');
  });
});

describe('the on/off switches of the feature page', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('switches this environment on from the header, and the Overview shows it', async () => {
    const server = switchServer();
    const { calls } = render('/projects/web/environments/dev/features/checkout', server);
    const user = userEvent.setup();
    const header = await headerSwitch('Development');
    expect(header.checked).toBe(false);

    await user.click(header);

    expect(await screen.findByText('Feature saved.')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(header.checked).toBe(true);
    expect((await overviewSwitch('Development')).checked).toBe(true);
    expect((await overviewSwitch('Production')).checked).toBe(false);
    expect(calls.filter((call) => call.method === 'PUT').map(({ path, body }) => ({ path, body }))).toEqual([
      {
        path: `/api/v1/feature-controls/${controlFixture('dev').id}/enabled`,
        body: { enabled: true, lastModifiedDate: controlFixture('dev').lastModifiedDate },
      },
    ]);
  });

  it('asks before switching production, and the header and the Overview agree at once', async () => {
    const server = switchServer();
    render(DETAIL, server);
    const user = userEvent.setup();
    await user.click(await overviewSwitch('Production'));
    const dialog = await screen.findByRole('dialog', { name: 'Production environment' });
    expect(
      within(dialog).getByText(
        'Warning, this is a production environment. Are you sure you wish to update New checkout in Production?',
      ),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByText('Feature saved.')).toBeVisible();
    expect((await headerSwitch('Production')).checked).toBe(true);
    expect((await overviewSwitch('Production')).checked).toBe(true);
  });

  it('moves both switches at once, and back with the reason when the save fails', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const server = switchServer(() =>
      answered.then(() => jsonResponse(500, { title: 'Database unavailable.' })),
    );
    render('/projects/web/environments/dev/features/checkout', server);
    const user = userEvent.setup();
    const header = await headerSwitch('Development');
    await user.click(header);
    // Before the server answers, the header and the Overview show the switch where the user left it.
    await waitFor(() => expect(header.checked).toBe(true));
    expect((await overviewSwitch('Development')).checked).toBe(true);
    answer();

    expect(
      await screen.findByText('We encountered an error, the feature was not saved. Database unavailable.'),
    ).toBeVisible();
    await waitFor(() => expect(header.checked).toBe(false));
    expect((await overviewSwitch('Development')).checked).toBe(false);
  });

  it('shows who changed a stale switch and what is stored', async () => {
    const stale = 'Ada Editor changed this feature after you opened it.';
    let stored = featureFixture();
    render('/projects/web/environments/dev/features/checkout', {
      feature: () => stored,
      handlers: {
        [`PUT /api/v1/feature-controls/${controlFixture('dev').id}/enabled`]: () => {
          // Someone switched it on, with rules of their own, before this switch was sent.
          stored = featureFixture({
            controls: {
              ...stored.controls,
              dev: controlFixture('dev', { enabled: true, rulesDescription: 'Everyone gets On.' }),
            },
          });
          return jsonResponse(409, { title: stale, code: 'stale_write' });
        },
      },
    });
    const user = userEvent.setup();
    await user.click(await headerSwitch('Development'));

    expect(await screen.findByText(stale)).toBeVisible();
    expect(await screen.findByText('Everyone gets On.')).toBeVisible();
    expect((await headerSwitch('Development')).checked).toBe(true);
  });

  it("disables production's switch, with the reason, for a non-production editor", async () => {
    render('/projects/web/environments/dev/features/checkout', {
      session: payloadFor('ROLE_ORGANISATION_EDITOR'),
    });
    expect((await headerSwitch('Development')).disabled).toBe(false);
    expect((await overviewSwitch('Development')).disabled).toBe(false);
    const production = await overviewSwitch('Production');
    expect(production.disabled).toBe(true);
    expect(production).toHaveAccessibleDescription();
    expect(document.getElementById(production.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Only a production editor can change a feature in a production environment.',
    );
  });

  it('disables every switch for a read-only user', async () => {
    render('/projects/web/environments/dev/features/checkout', {
      session: payloadFor('ROLE_ORGANISATION_READONLY_USER'),
    });
    expect((await headerSwitch('Development')).disabled).toBe(true);
    expect((await overviewSwitch('Development')).disabled).toBe(true);
    expect((await overviewSwitch('Production')).disabled).toBe(true);
  });
});
