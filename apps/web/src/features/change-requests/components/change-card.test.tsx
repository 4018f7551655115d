import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import type { ChangeRequest, ChangeRequestChange } from '@vexil/core';
import { renderRoutes } from '../../../testing/test-utils';
import { resetOverlays } from '../../../testing/test-fixtures';
import {
  changeFixture,
  changeRequestFixture,
  renderChangeRequests,
  serveChangeRequests,
} from '../../../testing/change-requests-test-server';
import { ChangeCard } from './change-card';

const pageOf = (request: ChangeRequest) =>
  `/projects/web/environments/production/change-requests/${request.id}`;

const settingsChange = changeFixture(2, {
  kind: 'feature',
  resourceType: 'feature',
  featureKey: 'checkout',
  resourceName: 'New checkout',
  live: { name: 'Checkout' },
  proposed: { name: 'New checkout' },
  merged: { name: 'New checkout' },
  changes: ['Name changed from “Checkout” to “New checkout”'],
});
const segmentChange = changeFixture(3, {
  kind: 'segment',
  resourceType: 'segment',
  featureKey: null,
  resourceName: '<b>Beta testers</b>',
  live: { description: '' },
  proposed: { description: 'People who opted in' },
  merged: { description: 'People who opted in' },
  changes: ['Description set to “People who opted in”'],
});

describe('A change request’s changes', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('shows a feature’s settings and a segment, each linked to where it is edited', async () => {
    const request = changeRequestFixture(1, { changes: [changeFixture(1), settingsChange, segmentChange] });
    serveChangeRequests({ requests: [request] });
    renderChangeRequests(pageOf(request));

    const settings = await screen.findByRole('listitem', { name: 'Settings: New checkout' });
    expect(within(settings).getByText('Settings')).toBeVisible();
    expect(within(settings).getByRole('link', { name: 'New checkout' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/features/checkout/settings',
    );
    expect(within(settings).getByText('Name changed from “Checkout” to “New checkout”')).toBeVisible();

    // The segment's name is the user's: shown as text, never as markup.
    const segment = screen.getByRole('listitem', { name: 'Segment: <b>Beta testers</b>' });
    expect(within(segment).getByText('Segment')).toBeVisible();
    expect(within(segment).getByRole('link', { name: '<b>Beta testers</b>' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/segments',
    );
    expect(within(segment).getByText('Description set to “People who opted in”')).toBeVisible();

    // The control's change still leads to the feature's page.
    const control = screen.getByRole('listitem', { name: 'Targeting: Checkout' });
    expect(within(control).getByRole('link', { name: 'Checkout' })).toHaveAttribute(
      'href',
      '/projects/web/environments/production/features/checkout',
    );
  });

  it('shows a kind it does not know as a change, unlinked, with its sentences', async () => {
    // What a newer server might send: a kind this dashboard has no label or page for.
    const unknown = { ...changeFixture(4), kind: 'environment', resourceName: 'Production' } as unknown;
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ul>
              <ChangeCard
                change={unknown as ChangeRequestChange}
                projectKey="web"
                environmentKey="production"
                editable={false}
                removing={false}
                onRemove={() => undefined}
                rebasing={false}
                onBringUpToDate={() => Promise.resolve(false)}
              />
            </ul>
          ),
        },
      ],
      '/',
    );

    const card = await screen.findByRole('listitem', { name: 'Change: Production' });
    expect(within(card).getByText('Change')).toBeVisible();
    expect(within(card).queryByRole('link')).toBeNull();
    expect(within(card).getByText('Turned on')).toBeVisible();
  });
});
