import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initialPayload, jsonResponse, withSdkKeys } from '../../../testing/test-utils';
import {
  deliveryFixture,
  renderScreen,
  resetOverlays,
  serveWebhooks,
  webhookFixture,
  webhooksPath,
} from '../../../testing/integrations-test-server';
import { ProjectWebhooks } from './project-webhooks';

const project = withSdkKeys(initialPayload().projects[0]!);
const route = { path: 'admin/projects/web', element: <ProjectWebhooks project={project} /> };

function renderWebhooks() {
  return { ...renderScreen(route, '/admin/projects/web'), user: userEvent.setup() };
}

const webhookList = () => screen.findByRole('list', { name: 'Webhooks' });
const card = async (url: string) => within(within(await webhookList()).getByRole('listitem', { name: url }));

describe('webhook delivery log', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  const openLog = async (user: ReturnType<typeof userEvent.setup>, url: string) => {
    await user.click((await card(url)).getByRole('button', { name: 'Deliveries' }));
    return screen.findByRole('dialog', { name: 'Deliveries' });
  };

  it('lists each delivery with its status, event, attempts, response code, duration, time, error and next attempt', async () => {
    const hook = webhookFixture();
    serveWebhooks({
      webhooks: [hook],
      deliveries: {
        [hook.id]: [
          deliveryFixture({
            status: 'pending',
            eventType: 'feature.created',
            attempts: 2,
            responseCode: 503,
            durationMs: 120,
            error: 'The receiver answered HTTP 503.',
            nextAttemptDate: new Date(Date.now() + 5 * 60 * 1000).toISOString(),
          }),
          deliveryFixture({ eventType: 'webhook.test' }),
        ],
      },
    });
    const { user } = renderWebhooks();
    const dialog = await openLog(user, hook.url);
    const table = await within(dialog).findByRole('table', { name: 'Deliveries' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Status', 'Event', 'Attempts', 'Response', 'Duration', 'Sent', 'Details', 'Actions']);
    const [pending, test] = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row));
    expect(pending!.getByText('Pending')).toBeVisible();
    expect(pending!.getByText('Feature created')).toBeVisible();
    expect(pending!.getByText('2')).toBeVisible();
    expect(pending!.getByText('503')).toBeVisible();
    expect(pending!.getByText('120 ms')).toBeVisible();
    expect(pending!.getByText('5 minutes ago')).toBeVisible();
    expect(pending!.getByText('The receiver answered HTTP 503.')).toBeVisible();
    expect(pending!.getByText('in 5 minutes')).toBeVisible();
    expect(test!.getByText('Succeeded')).toBeVisible();
    expect(test!.getByText('Test delivery')).toBeVisible();
    expect(test!.getByText('200')).toBeVisible();
    expect(test!.getByText('42 ms')).toBeVisible();
  });

  it('says nothing has been sent yet, and shows a test delivery after Refresh', async () => {
    const hook = webhookFixture();
    serveWebhooks({ webhooks: [hook] });
    const { user } = renderWebhooks();
    // A test sent from the card, while the log is closed, is in the log once it opens.
    const dialog = await openLog(user, hook.url);
    expect(await within(dialog).findByText('Nothing has been sent to this webhook yet.')).toBeVisible();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click((await card(hook.url)).getByRole('button', { name: 'Send test' }));
    await screen.findByText('Test delivery succeeded: HTTP 200 in 42 ms.');

    const again = await openLog(user, hook.url);
    await user.click(within(again).getByRole('button', { name: 'Refresh' }));
    expect(await within(again).findByText('Test delivery')).toBeVisible();
  });

  it('shows Retry when the log cannot be loaded', async () => {
    const hook = webhookFixture();
    serveWebhooks({
      webhooks: [hook],
      handlers: {
        [`GET ${webhooksPath()}/${hook.id}/deliveries`]: () =>
          jsonResponse(500, { title: 'Something went wrong on our side.' }),
      },
    });
    const { user } = renderWebhooks();
    const dialog = await openLog(user, hook.url);
    const alert = (await within(dialog).findByText('We could not load the deliveries.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeVisible();
  });

  it('resends a failed delivery and lists the new attempt', async () => {
    const hook = webhookFixture();
    const failed = deliveryFixture({
      status: 'failed',
      attempts: 5,
      responseCode: null,
      durationMs: 10_000,
      error: 'The receiver did not answer within 10 seconds.',
    });
    const { calls } = serveWebhooks({ webhooks: [hook], deliveries: { [hook.id]: [failed] } });
    const { user } = renderWebhooks();
    const dialog = await openLog(user, hook.url);
    const table = await within(dialog).findByRole('table', { name: 'Deliveries' });
    expect(within(table).getByText('Failed')).toBeVisible();
    await user.click(within(table).getByRole('button', { name: 'Resend' }));

    expect(await screen.findByText('Resend queued: the delivery log shows how it goes.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${webhooksPath()}/deliveries/${failed.id}/resend`,
    ]);
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(within(table).getByText('Succeeded')).toBeVisible();
  });

  it('says why a resend was refused', async () => {
    const hook = webhookFixture();
    const failed = deliveryFixture({ status: 'failed', error: 'The receiver answered HTTP 500.' });
    serveWebhooks({
      webhooks: [hook],
      deliveries: { [hook.id]: [failed] },
      handlers: {
        [`POST ${webhooksPath()}/deliveries/${failed.id}/resend`]: () =>
          jsonResponse(400, { title: 'This webhook is inactive.' }),
      },
    });
    const { user } = renderWebhooks();
    const dialog = await openLog(user, hook.url);
    await user.click(await within(dialog).findByRole('button', { name: 'Resend' }));
    expect(
      await screen.findByText('There was an error resending the delivery: This webhook is inactive.'),
    ).toBeVisible();
  });

  it('shows each delivery as a card on a phone', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }));
    const hook = webhookFixture();
    serveWebhooks({ webhooks: [hook], deliveries: { [hook.id]: [deliveryFixture()] } });
    const { user } = renderWebhooks();
    const dialog = await openLog(user, hook.url);
    const list = await within(dialog).findByRole('list', { name: 'Deliveries' });
    expect(within(dialog).queryByRole('table')).toBeNull();
    const item = within(within(list).getByRole('listitem', { name: 'Feature turned on or off' }));
    expect(item.getByText('Succeeded')).toBeVisible();
    expect(item.getByText('42 ms')).toBeVisible();
    expect(item.getByRole('button', { name: 'Resend' })).toBeVisible();
  });
});
