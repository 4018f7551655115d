import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { LiveProvider, type LiveChange, type LiveChannel } from '../../../lib/live';
import { SessionProvider } from '../../../lib/session';
import { Providers, createTestQueryClient, initialPayload } from '../../../testing/test-utils';
import { LiveChangeNotice } from './live-change-notice';
import { UNSAVED_EDITS_ATTRIBUTE } from './unsaved-edits';

/** A channel the test speaks through. */
function testChannel() {
  const listeners = new Set<(change: LiveChange) => void>();
  const channel: LiveChannel = {
    status: () => 'CONNECTED',
    onStatus: () => () => undefined,
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    channel,
    tell: (change: LiveChange) => act(() => listeners.forEach((listener) => listener(change))),
  };
}

function Page({ editing, environmentKey }: { editing: boolean; environmentKey?: string }) {
  const root = useRef<HTMLDivElement>(null);
  return (
    <div ref={root}>
      <LiveChangeNotice root={root} projectKey="web" featureKey="checkout" environmentKey={environmentKey} />
      <form {...(editing ? { [UNSAVED_EDITS_ATTRIBUTE]: 'the settings' } : {})} />
    </div>
  );
}

function show(editing: boolean, environmentKey?: string) {
  const { channel, tell } = testChannel();
  render(
    <Providers queryClient={createTestQueryClient()}>
      <SessionProvider session={initialPayload()}>
        <LiveProvider channel={channel}>
          <Page editing={editing} environmentKey={environmentKey} />
        </LiveProvider>
      </SessionProvider>
    </Providers>,
  );
  return tell;
}

const byOther = (kind: LiveChange['kind'], featureKey = 'checkout'): LiveChange => ({
  kind,
  projectKey: 'web',
  environmentKey: 'production',
  featureKey,
  actor: { id: 'another-member', name: 'grace@example.com' },
  at: '2026-11-24T10:00:00.000Z',
});

describe('LiveChangeNotice', () => {
  it('says who changed the feature while the user holds unsaved edits, and offers Reload', () => {
    const tell = show(true);
    tell(byOther('feature.targeting'));
    expect(screen.getByText('This feature was changed while you were editing')).toBeVisible();
    expect(screen.getByText(/grace@example.com changed its targeting in production/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
  });

  it('leaves a switch or targeting saved in the page’s environment to the Targeting form', () => {
    const tell = show(true, 'production');
    tell(byOther('feature.targeting'));
    tell(byOther('feature.toggled'));
    expect(screen.queryByRole('status')).toBeNull();
    tell({ ...byOther('feature.targeting'), environmentKey: 'development' });
    expect(screen.getByText(/grace@example.com changed its targeting in development/)).toBeVisible();
  });

  it('says nothing without unsaved edits, for another feature, for an SDK, or for the user’s own change', () => {
    const tell = show(false);
    tell(byOther('feature.settings'));
    expect(screen.queryByRole('status')).toBeNull();
    const editing = show(true);
    editing(byOther('feature.settings', 'another'));
    editing({ ...byOther('feature.seen'), actor: undefined });
    editing({
      ...byOther('feature.toggled'),
      actor: { id: initialPayload().principalUser.id, name: 'admin@example.com' },
    });
    expect(screen.queryByRole('status')).toBeNull();
  });
});
