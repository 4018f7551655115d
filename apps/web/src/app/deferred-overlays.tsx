import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { notificationsStore, useNotifications } from '@mantine/notifications';
import { NOTIFICATION_LIMIT, NOTIFICATION_TIMEOUT_MS } from '../lib/notify';

/*
 * The notifications' container and the modal stack load their code when first used. Both mount at
 * the root of every page, yet most visits to sign-in and Home show neither: their components, the
 * modal's scroll area, focus trap and scroll lock and the notifications' transitions were a good part
 * of those pages' download (bench/bundle.bench.ts). What calls them stays as it is: `lib/notify`
 * writes to Mantine's notifications store and `lib/modals` sends Mantine's modal events, both of
 * which are small and load with the page; these components watch for the first use and then mount
 * Mantine's own, which shows what was asked meanwhile.
 */

const LazyNotifications = lazy(() =>
  import('./overlay-hosts').then((module) => ({ default: module.Notifications })),
);
const LazyModalsProvider = lazy(() =>
  import('./overlay-hosts').then((module) => ({ default: module.ModalsProvider })),
);

// Before the container mounts, notifications queue in the store by its rule: at most this many show.
notificationsStore.updateState((state) => ({
  ...state,
  limit: NOTIFICATION_LIMIT,
  defaultPosition: 'bottom-right',
}));

/** Mantine's notifications, mounted once the first notification is shown. */
export function DeferredNotifications() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  // Once mounted it stays, so that the last notification's closing transition plays out.
  if (notifications.length + queue.length > 0 && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* Bottom-right, away from the top navigation's profile menu, which top-right toasts covered. */}
      <LazyNotifications
        position="bottom-right"
        autoClose={NOTIFICATION_TIMEOUT_MS}
        limit={NOTIFICATION_LIMIT}
      />
    </Suspense>
  );
}

/** The events `modals` from @mantine/modals sends to its provider (`mantine-modals:{name}` on window). */
const modalEvent = (name: string) => `mantine-modals:${name}`;
const OPEN_EVENTS = ['openModal', 'openConfirmModal', 'openContextModal'].map(modalEvent);
const MODAL_EVENTS = [
  ...OPEN_EVENTS,
  ...['closeModal', 'closeAllModals', 'updateModal', 'updateContextModal'].map(modalEvent),
];

type ModalEvent = { type: string; detail: unknown };

/**
 * Mantine's modal stack, mounted when the first modal opens. The events sent before its provider
 * listens are kept and sent again, in order, once it does.
 */
export function DeferredModals() {
  const [wanted, setWanted] = useState(false);
  const pending = useRef<ModalEvent[]>([]);
  const listening = useRef(true);
  useEffect(() => {
    const keep = (event: Event) => {
      if (!listening.current) return;
      // Closing or updating before anything opened has nothing to act on (sign-out closes them all).
      if (!OPEN_EVENTS.includes(event.type) && pending.current.length === 0) return;
      pending.current.push({ type: event.type, detail: (event as CustomEvent).detail });
      setWanted(true);
    };
    for (const type of MODAL_EVENTS) window.addEventListener(type, keep);
    return () => {
      for (const type of MODAL_EVENTS) window.removeEventListener(type, keep);
    };
  }, []);
  if (!wanted) return null;
  const replay = () => {
    listening.current = false;
    for (const { type, detail } of pending.current.splice(0))
      window.dispatchEvent(new CustomEvent(type, { detail }));
  };
  return (
    <Suspense fallback={null}>
      <LazyModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }} />
      <Replay onMount={replay} />
    </Suspense>
  );
}

/**
 * Runs `onMount` once its preceding siblings' effects have run: the provider's listeners are on
 * window by then (React runs effects in tree order).
 */
function Replay({ onMount }: { onMount: () => void }) {
  const run = useRef(onMount);
  useEffect(() => {
    run.current();
  }, []);
  return null;
}
