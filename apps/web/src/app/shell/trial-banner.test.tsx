import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { InitialPayload } from '@vexil/core';
import {
  createTestQueryClient,
  initialPayload,
  Providers,
  trialSubscription,
} from '../../testing/test-utils';
import { SessionProvider } from '../../lib/session';
import { TrialBanner } from './trial-banner';

function renderBanner(session: InitialPayload) {
  return render(
    <Providers queryClient={createTestQueryClient()}>
      <MemoryRouter>
        <SessionProvider session={session}>
          <TrialBanner />
        </SessionProvider>
      </MemoryRouter>
    </Providers>,
  );
}

describe('trial banner', () => {
  it('says how many days are left, linking to billing', () => {
    renderBanner(initialPayload({ subscription: trialSubscription(12) }));
    expect(screen.getByRole('link', { name: '12 days left in your trial' }).getAttribute('href')).toBe(
      '/admin/billing',
    );
  });

  it('says "1 day" on the last day', () => {
    renderBanner(initialPayload({ subscription: trialSubscription(1) }));
    expect(screen.getByRole('link', { name: '1 day left in your trial' })).toBeVisible();
  });

  it('tells other members whom to ask, without a link to a billing page they may not use', () => {
    for (const authority of ['ROLE_ORGANISATION_READONLY_USER', 'ROLE_ORGANISATION_EDITOR'] as const) {
      const session = initialPayload({ subscription: trialSubscription(3) });
      session.principalUser.authorities = [authority];
      const { unmount } = renderBanner(session);
      expect(
        screen.getByText('3 days left in your trial. Ask an organisation admin to choose a plan.'),
      ).toBeVisible();
      expect(screen.queryByRole('link')).toBeNull();
      unmount();
    }
  });

  it('is absent outside a trial and without a subscription', () => {
    const { unmount } = renderBanner(initialPayload({ subscription: trialSubscription(0, false) }));
    expect(screen.queryByText(/left in your trial/)).toBeNull();
    unmount();
    renderBanner(initialPayload({ subscription: null }));
    expect(screen.queryByText(/left in your trial/)).toBeNull();
  });
});
