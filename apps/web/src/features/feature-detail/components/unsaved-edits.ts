import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useBlocker, type Location } from 'react-router';
import { confirm } from '../../../lib/modals';

/*
 * The feature page's editors (the Settings form here, the targeting editor, a feature of its own) mark
 * their root with this attribute while they hold edits that are not saved; its value says what the
 * edits change ("the settings"). The page reads it when the user leaves, so that no editor has to
 * import the page.
 */
export const UNSAVED_EDITS_ATTRIBUTE = 'data-unsaved-edits';

/** What the unsaved edits under `root` change, in the order they appear. */
export function unsavedEditsIn(root: ParentNode | null): string[] {
  if (!root) return [];
  return [...root.querySelectorAll(`[${UNSAVED_EDITS_ATTRIBUTE}]`)].map(
    (element) => element.getAttribute(UNSAVED_EDITS_ATTRIBUTE) ?? '',
  );
}

/** "the targeting for Production and the settings". */
function listed(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The question asked before leaving with unsaved edits; resolves true to leave. */
export function confirmLeaving(parts: readonly string[]): Promise<boolean> {
  return confirm({
    title: 'Unsaved changes',
    message: `Your changes to ${listed(parts)} are not saved. If you leave this page, they are lost.`,
    confirmLabel: 'Leave without saving',
    cancelLabel: 'Keep editing',
    danger: true,
  });
}

/** Navigation state that leaves without asking: the feature was deleted, its edits can no longer be saved. */
export const LEAVE_WITHOUT_ASKING = { leaveWithoutAsking: true } as const;

function leavesWithoutAsking(location: Location): boolean {
  const state: unknown = location.state;
  return typeof state === 'object' && state !== null && 'leaveWithoutAsking' in state;
}

/**
 * Asks before the user leaves `root`'s page while an editor under it holds unsaved edits: in the app
 * (a Mantine confirmation; "Keep editing" stays), and on reload or closing the tab (the browser's
 * own question). Addresses for which `stays` is true (another tab of the same page) never ask.
 */
export function useConfirmLeavingUnsaved(
  root: RefObject<HTMLElement | null>,
  stays: (pathname: string) => boolean,
): void {
  const blocker = useBlocker(
    useCallback(
      ({ nextLocation }: { nextLocation: Location }) =>
        !stays(nextLocation.pathname) &&
        !leavesWithoutAsking(nextLocation) &&
        unsavedEditsIn(root.current).length > 0,
      [root, stays],
    ),
  );

  // One question per blocked navigation, even when the effect runs twice.
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    void confirmLeaving(unsavedEditsIn(root.current)).then((leave) => {
      asking.current = false;
      if (leave) blocker.proceed();
      else blocker.reset();
    });
  }, [blocker, root]);

  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => {
      if (unsavedEditsIn(root.current).length === 0) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [root]);
}
