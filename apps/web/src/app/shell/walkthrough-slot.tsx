import { lazy, Suspense, useEffect, useState } from 'react';
import { useFlag } from '../../lib/flags';
import { useSession } from '../../lib/session';

/*
 * Where the welcome walkthrough (docs/product.md §2 "Onboarding walkthrough", §4) opens over the signed-in
 * pages. This part is in every page's first download, so it only decides; the walkthrough itself is
 * fetched when it is first shown.
 */

const WelcomeWalkthrough = lazy(() =>
  import('../../features/walkthrough/components/welcome-walkthrough').then((module) => ({
    default: module.WelcomeWalkthrough,
  })),
);

const replayListeners = new Set<() => void>();

/** Opens the walkthrough again (the profile menu's "Welcome tour"). */
export function replayWalkthrough(): void {
  for (const listener of replayListeners) listener();
}

/**
 * Shows the walkthrough to a user who has not closed it yet (no introReadDate) while flag welcome-message
 * is on, and whenever it is replayed. Once closed it stays closed, before the reloaded session says so too.
 */
export function WalkthroughSlot() {
  const enabled = useFlag('welcome-message');
  const { principalUser } = useSession();
  const [closed, setClosed] = useState(false);
  const [replaying, setReplaying] = useState(false);

  useEffect(() => {
    const replay = () => setReplaying(true);
    replayListeners.add(replay);
    return () => {
      replayListeners.delete(replay);
    };
  }, []);

  const firstVisit = enabled && !principalUser.settings.introReadDate && !closed;
  if (!firstVisit && !replaying) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeWalkthrough
        user={principalUser}
        onClose={() => {
          setClosed(true);
          setReplaying(false);
        }}
      />
    </Suspense>
  );
}
