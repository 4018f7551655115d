import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLive } from './live-runtime';

/** The tab's WebSocket, driven by the test: it opens and closes when told. */
class FakeWebSocket {
  static made: FakeWebSocket[] = [];
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.made.push(this);
  }
  close() {}
  open() {
    this.onopen?.({} as Event);
  }
  drop(code: number) {
    this.onclose?.({ code } as CloseEvent);
  }
}

beforeEach(() => {
  FakeWebSocket.made = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A query client holding what a page loaded before the connection opened, watched as a screen would. */
async function loadedPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  let served = 'before';
  const fetched: string[] = [];
  const queryFn = () => {
    fetched.push(served);
    return Promise.resolve(served);
  };
  const observer = new QueryObserver(queryClient, { queryKey: ['features'], queryFn });
  const stopWatching = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(queryClient.getQueryData(['features'])).toBe('before'));
  return {
    queryClient,
    fetched,
    /** Someone changes what the server serves. */
    change: () => (served = 'after'),
    value: () => queryClient.getQueryData(['features']),
    stopWatching,
  };
}

describe('startLive', () => {
  it('refreshes what was loaded before the first connection opened, since its changes were not heard', async () => {
    const page = await loadedPage();
    const live = startLive(page.queryClient);
    try {
      // Changed after the page loaded, before the connection opened: no message will tell of it.
      page.change();
      FakeWebSocket.made[0]!.open();
      await vi.waitFor(() => expect(page.value()).toBe('after'));
    } finally {
      live.stop();
      page.stopWatching();
    }
  });

  it('leaves a load that failed to its own Retry when the connection opens', async () => {
    const page = await loadedPage();
    let asked = 0;
    const failing = new QueryObserver(page.queryClient, {
      queryKey: ['home'],
      retry: false,
      queryFn: () => {
        asked += 1;
        return Promise.reject(new Error('The list failed.'));
      },
    });
    const stopFailing = failing.subscribe(() => undefined);
    await vi.waitFor(() => expect(page.queryClient.getQueryState(['home'])?.status).toBe('error'));
    const live = startLive(page.queryClient);
    try {
      page.change();
      FakeWebSocket.made[0]!.open();
      // What loaded is refreshed; the failed list, on screen with its Retry, is not asked again.
      await vi.waitFor(() => expect(page.value()).toBe('after'));
      expect(asked).toBe(1);
    } finally {
      live.stop();
      stopFailing();
      page.stopWatching();
    }
  });

  it('fetches everything again when the server ends the connection, so that an ended session signs out', async () => {
    const page = await loadedPage();
    const live = startLive(page.queryClient);
    try {
      FakeWebSocket.made[0]!.open();
      await vi.waitFor(() => expect(page.fetched).toHaveLength(2));
      page.change();
      FakeWebSocket.made[0]!.drop(4401);
      await vi.waitFor(() => expect(page.value()).toBe('after'));
      expect(FakeWebSocket.made).toHaveLength(1);
    } finally {
      live.stop();
      page.stopWatching();
    }
  });
});
