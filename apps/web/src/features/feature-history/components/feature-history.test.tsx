import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Authority, VersionSummary } from '@vexil/core';
import { jsonResponse, renderRoute, stubApi } from '../../../testing/test-utils';
import { controlFixture, featureFixture, payloadFor, resetOverlays } from '../../../testing/test-fixtures';
import { changeRequestFixture } from '../../../testing/change-requests-test-server';
import { FeatureHistory } from './feature-history';

const BASE = '/api/v1/projects/web/features/checkout/versions';
const PRODUCTION = { key: 'production', name: 'Production', production: true, tags: [], projectId: 'p1' };

function version(
  number: number,
  overrides: Partial<VersionSummary> & { minutesAgo: number },
): VersionSummary {
  const { minutesAgo, ...rest } = overrides;
  return {
    number,
    parentNumber: number > 1 ? number - 1 : null,
    resourceType: 'feature_control',
    environmentKey: 'production',
    author: { id: 'u1', name: 'admin@example.com' },
    source: 'ui',
    comment: null,
    restoredFrom: null,
    changeRequestId: null,
    changes: [],
    createdDate: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    ...rest,
  };
}

const controlVersions = [
  version(3, {
    minutesAgo: 1,
    changes: ['Rule 1: Country is one of NZ → 50% On, 50% Off became 80% On, 20% Off'],
  }),
  version(2, { minutesAgo: 5, comment: 'Start the rollout <b>now</b>', changes: ['Turned on'] }),
  version(1, { minutesAgo: 60, author: null, source: 'system', changes: ['The state when history began.'] }),
];
const settingsVersions = [
  version(2, {
    minutesAgo: 3,
    resourceType: 'feature',
    environmentKey: null,
    changes: ['Name: Checkout became New checkout'],
  }),
  version(1, { minutesAgo: 90, resourceType: 'feature', environmentKey: null, changes: ['Created'] }),
];

function render(authority: Authority = 'ROLE_ORGANISATION_ADMIN', handlers = {}) {
  const calls = stubApi({
    [`GET ${BASE}`]: ({ url }) =>
      jsonResponse(200, {
        content: url.searchParams.get('environmentKey') ? controlVersions : settingsVersions,
        last: true,
      }),
    ...handlers,
  });
  const session = payloadFor(authority);
  renderRoute(
    {
      path: '/history',
      element: (
        <FeatureHistory
          feature={featureFixture()}
          projectKey="web"
          projectId="p1"
          environment={PRODUCTION}
          user={session.principalUser}
        />
      ),
    },
    '/history',
    { session },
  );
  return calls;
}

const entries = () => within(screen.getByRole('list', { name: 'Versions' })).getAllByRole('listitem');

describe('History tab', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it("merges the settings' and this environment's versions, newest first, with who, source, comment and changes", async () => {
    render();
    await screen.findByRole('list', { name: 'Versions' });
    const names = entries()
      .filter((li) => li.getAttribute('aria-label'))
      .map((li) => li.getAttribute('aria-label'));
    expect(names).toEqual([
      'Version 3 of the targeting in Production',
      'Version 2 of the settings',
      'Version 2 of the targeting in Production',
      'Version 1 of the targeting in Production',
      'Version 1 of the settings',
    ]);
    const second = screen.getByRole('listitem', { name: 'Version 2 of the targeting in Production' });
    // A comment is text, never markup.
    expect(within(second).getByText('“Start the rollout <b>now</b>”')).toBeVisible();
    expect(within(second).getByText('Turned on')).toBeVisible();
    expect(within(second).getByText('Dashboard')).toBeVisible();
    const first = screen.getByRole('listitem', { name: 'Version 1 of the targeting in Production' });
    expect(within(first).getByText('System')).toBeVisible();
    expect(within(first).getByText(/^Vexil ·/)).toBeVisible();
    // The newest of each part is current and has no Restore.
    const newest = screen.getByRole('listitem', { name: 'Version 3 of the targeting in Production' });
    expect(within(newest).getByText('Current')).toBeVisible();
    expect(within(newest).queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('compares two versions of one part side by side, with the differences in words', async () => {
    const calls = render('ROLE_ORGANISATION_ADMIN', {
      [`GET ${BASE}/1`]: () =>
        jsonResponse(200, {
          ...controlVersions[2],
          snapshot: { enabled: false, offVariantKey: 'off', rules: [] },
        }),
      [`GET ${BASE}/3`]: () =>
        jsonResponse(200, {
          ...controlVersions[0],
          snapshot: {
            enabled: true,
            offVariantKey: 'off',
            rules: [
              {
                defaultRule: true,
                audience: null,
                variantSplits: [
                  { variantKey: 'on', split: 80 },
                  { variantKey: 'off', split: 20 },
                ],
              },
            ],
          },
        }),
      [`GET ${BASE}/1/diff/3`]: () =>
        jsonResponse(200, { from: 1, to: 3, patch: [], changes: ['Turned on', 'Default rule added'] }),
    });
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Versions' });
    await user.click(
      screen.getByRole('checkbox', { name: 'Compare version 3 of the targeting in Production' }),
    );
    await user.click(
      screen.getByRole('checkbox', { name: 'Compare version 1 of the targeting in Production' }),
    );
    const comparison = await screen.findByRole('region', {
      name: 'Version 1 compared with version 3 of the targeting in Production',
    });
    const differences = await within(comparison).findByRole('list', { name: 'Differences' });
    expect(
      within(differences)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Turned on', 'Default rule added']);
    expect(within(comparison).getByText('Everyone → 80% On, 20% Off')).toBeVisible();
    expect(within(comparison).getByText('No rules.')).toBeVisible();
    expect(calls.some((c) => c.path === `${BASE}/1/diff/3?environmentKey=production`)).toBe(true);
  });

  it('restores after previewing what changes, with the production warning and a comment, naming the newest version', async () => {
    const restored: unknown[] = [];
    render('ROLE_ORGANISATION_ADMIN', {
      [`GET ${BASE}/3/diff/2`]: () =>
        jsonResponse(200, { from: 3, to: 2, patch: [], changes: ['Rule 1 removed'] }),
      [`POST ${BASE}/2/restore`]: ({ body }: { body: unknown }) => {
        restored.push(body);
        return jsonResponse(200, controlFixture('production'));
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Versions' });
    await user.click(
      screen.getByRole('button', { name: 'Restore version 2 of the targeting in Production' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Restore version 2 of the targeting in Production?',
    });
    expect(await within(dialog).findByText('Rule 1 removed')).toBeVisible();
    expect(
      within(dialog).getByText(
        'Warning, this is a production environment. Are you sure you wish to update New checkout in Production?',
      ),
    ).toBeVisible();
    await user.type(within(dialog).getByLabelText(/Comment/), 'Back to the safe split');
    await user.click(within(dialog).getByRole('button', { name: 'Restore version 2' }));
    await waitFor(() => expect(restored).toEqual([{ currentVersion: 3, comment: 'Back to the safe split' }]));
    expect(await screen.findByText('Version 2 restored.')).toBeVisible();
  });

  it('keeps the dialog open with the reason when the history was stale', async () => {
    render('ROLE_ORGANISATION_ADMIN', {
      [`GET ${BASE}/3/diff/1`]: () =>
        jsonResponse(200, { from: 3, to: 1, patch: [], changes: ['Turned off'] }),
      [`POST ${BASE}/1/restore`]: () =>
        jsonResponse(409, { title: 'Someone else changed it.', code: 'stale_write', status: 409 }),
    });
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Versions' });
    await user.click(
      screen.getByRole('button', { name: 'Restore version 1 of the targeting in Production' }),
    );
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Turned off');
    await user.click(within(dialog).getByRole('button', { name: 'Restore version 1' }));
    expect(
      await within(dialog).findByText(/^Someone changed this since the history was loaded/),
    ).toBeVisible();
  });

  it('offers to add a restore the environment refuses to a change request, and adds it there', async () => {
    const request = changeRequestFixture(7, { title: 'Spring clean' });
    const added: unknown[] = [];
    render('ROLE_ORGANISATION_ADMIN', {
      [`GET ${BASE}/3/diff/1`]: () =>
        jsonResponse(200, { from: 3, to: 1, patch: [], changes: ['Turned off'] }),
      [`POST ${BASE}/1/restore`]: () =>
        jsonResponse(409, {
          title: 'Changes to Production go through change requests: add this change to one.',
          code: 'change_request_required',
          environmentKey: 'production',
          changeRequestId: request.id,
        }),
      [`POST /api/v1/projects/web/change-requests/${request.id}/changes`]: ({ body }: { body: unknown }) => {
        added.push(body);
        return jsonResponse(200, request);
      },
    });
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Versions' });
    await user.click(
      screen.getByRole('button', { name: 'Restore version 1 of the targeting in Production' }),
    );
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Turned off');
    await user.type(within(dialog).getByLabelText(/Comment/), 'Too early');
    await user.click(within(dialog).getByRole('button', { name: 'Restore version 1' }));
    expect(
      await within(dialog).findByText(/^Changes to Production go through change requests/),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Add to change request' }));
    expect(await screen.findByText('Added to the change request “Spring clean”.')).toBeVisible();
    expect(added).toEqual([
      {
        kind: 'restore',
        of: 'targeting',
        featureKey: 'checkout',
        number: 1,
        currentVersion: 3,
        comment: 'Too early',
      },
    ]);
  });

  it('disables Restore of the targeting in production for an editor, with the reason', async () => {
    render('ROLE_ORGANISATION_EDITOR');
    await screen.findByRole('list', { name: 'Versions' });
    expect(
      screen.getByRole('button', { name: 'Restore version 2 of the targeting in Production' }),
    ).toBeDisabled();
    // The settings are not per environment: an editor may restore them.
    expect(screen.getByRole('button', { name: 'Restore version 1 of the settings' })).toBeEnabled();
  });
});
