import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_WEBHOOKS_PER_PROJECT } from '@vexil/core';
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

describe('project Webhooks section', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('lists each webhook with its address, description, events, environments, state and last delivery', async () => {
    serveWebhooks({
      webhooks: [
        webhookFixture({
          url: 'https://hooks.example.com/deploy',
          environmentKeys: ['production'],
          lastDelivery: { status: 'failed', at: new Date(Date.now() - 2 * 60 * 1000).toISOString() },
        }),
        webhookFixture({
          url: 'https://ci.example.com/hook',
          description: '',
          enabled: false,
          events: ['feature.deleted'],
        }),
      ],
    });
    renderWebhooks();

    expect(screen.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
    const first = await card('https://hooks.example.com/deploy');
    expect(first.getByText('Deploy bot')).toBeVisible();
    expect(first.getByText('Active')).toBeVisible();
    expect(first.getByText('Feature turned on or off')).toBeVisible();
    expect(first.getByText('Feature created')).toBeVisible();
    expect(first.getByText('Production')).toBeVisible();
    expect(first.getByText('Failed')).toBeVisible();
    expect(first.getByText('2 minutes ago')).toBeVisible();

    const second = await card('https://ci.example.com/hook');
    expect(second.getByText('Inactive')).toBeVisible();
    expect(second.getByText('All')).toBeVisible();
    expect(second.getByText('Never')).toBeVisible();
  });

  it('says the project has none yet', async () => {
    serveWebhooks();
    renderWebhooks();
    expect(await screen.findByText('This project has no webhooks yet.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'New webhook' })).toBeVisible();
  });

  it('shows a skeleton while loading and Retry when loading fails', async () => {
    let fail = true;
    serveWebhooks({
      handlers: {
        [`GET ${webhooksPath()}`]: () =>
          fail
            ? jsonResponse(403, { title: 'Only organisation admins may manage integrations.' })
            : jsonResponse(200, []),
      },
    });
    const { user } = renderWebhooks();
    expect(screen.getByRole('status', { name: 'Loading webhooks' })).toBeVisible();
    const alert = (await screen.findByText('We could not load the webhooks.')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    expect(alert.textContent).toContain('Only organisation admins may manage integrations.');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('This project has no webhooks yet.')).toBeVisible();
  });

  it('creates a webhook and shows its signing secret once, with a copy button', async () => {
    const { calls, secret } = serveWebhooks();
    const { user } = renderWebhooks();
    await screen.findByText('This project has no webhooks yet.');

    await user.click(screen.getByRole('button', { name: 'New webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'New webhook' });
    const form = within(dialog);
    // Toggles are chosen by default.
    expect(
      (form.getByRole('checkbox', { name: 'Feature turned on or off' }) as HTMLInputElement).checked,
    ).toBe(true);
    await user.type(form.getByRole('textbox', { name: 'Payload URL' }), 'https://hooks.example.com/new');
    await user.type(form.getByRole('textbox', { name: 'Description' }), 'Release notes bot');
    await user.click(form.getByRole('checkbox', { name: 'Feature created' }));
    await user.click(form.getByRole('combobox', { name: 'Environments' }));
    await user.click(await screen.findByRole('option', { name: 'Production' }));
    await user.click(form.getByRole('button', { name: 'Create webhook' }));

    expect(await screen.findByText('Webhook created.')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')).toEqual({
      method: 'POST',
      path: webhooksPath(),
      body: {
        url: 'https://hooks.example.com/new',
        description: 'Release notes bot',
        events: ['feature.toggled', 'feature.created'],
        environmentKeys: ['production'],
        enabled: true,
      },
    });
    const shown = await form.findByRole('textbox', { name: 'Signing secret' });
    expect((shown as HTMLTextAreaElement).value).toBe(secret);
    expect(dialog.textContent).toContain('Copy the signing secret now');
    expect(dialog.textContent).toContain('You won’t be able to see it again.');

    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(form.getByRole('button', { name: 'Copy secret' }));
    expect(writeText).toHaveBeenCalledWith(secret);
    expect(await form.findByRole('button', { name: 'Copied to clipboard' })).toBeVisible();

    await user.click(form.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      within(await webhookList()).getByRole('listitem', { name: 'https://hooks.example.com/new' }),
    ).toBeVisible();
    // Once closed, the secret is nowhere on the page.
    expect(document.body.textContent).not.toContain(secret);
  });

  it('checks the address and the events before sending, and shows the server’s reason', async () => {
    const { calls } = serveWebhooks({
      handlers: {
        [`POST ${webhooksPath()}`]: () =>
          jsonResponse(400, {
            title: 'This address is not allowed: it points to a private network.',
            errors: [
              { field: 'url', message: 'This address is not allowed: it points to a private network.' },
            ],
          }),
      },
    });
    const { user } = renderWebhooks();
    await screen.findByText('This project has no webhooks yet.');
    await user.click(screen.getByRole('button', { name: 'New webhook' }));
    const form = within(await screen.findByRole('dialog', { name: 'New webhook' }));

    await user.type(form.getByRole('textbox', { name: 'Payload URL' }), 'ftp://files.example.com');
    await user.click(form.getByRole('checkbox', { name: 'Feature turned on or off' }));
    await user.click(form.getByRole('button', { name: 'Create webhook' }));
    expect(await form.findByText('Must be a valid http(s) URL.')).toBeVisible();
    expect(form.getByText('Choose at least one event.')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(form.getByRole('textbox', { name: 'Payload URL' }));
    await user.type(form.getByRole('textbox', { name: 'Payload URL' }), 'http://10.0.0.5/hook');
    await user.click(form.getByRole('checkbox', { name: 'Feature deleted' }));
    await user.click(form.getByRole('button', { name: 'Create webhook' }));
    expect((await form.findByRole('alert')).textContent).toContain(
      'This address is not allowed: it points to a private network.',
    );
    const url = form.getByRole('textbox', { name: 'Payload URL' });
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.queryByText('Webhook created.')).toBeNull();
  });

  it('edits a webhook: switches it off and changes its events', async () => {
    const hook = webhookFixture({ url: 'https://hooks.example.com/deploy' });
    const { calls } = serveWebhooks({ webhooks: [hook] });
    const { user } = renderWebhooks();
    await user.click((await card(hook.url)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit webhook' });
    const form = within(dialog);
    expect((form.getByRole('textbox', { name: 'Payload URL' }) as HTMLInputElement).value).toBe(hook.url);
    await user.click(form.getByRole('checkbox', { name: 'Feature created' }));
    await user.click(form.getByRole('switch', { name: /^Active/ }));
    await user.click(form.getByRole('button', { name: 'Save webhook' }));

    expect(await screen.findByText('Webhook saved.')).toBeVisible();
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: `${webhooksPath()}/${hook.id}`,
      body: {
        url: hook.url,
        description: 'Deploy bot',
        events: ['feature.toggled'],
        environmentKeys: [],
        enabled: false,
      },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await (await card(hook.url)).findByText('Inactive')).toBeVisible();
  });

  it('sends a test delivery and says how it went', async () => {
    const hook = webhookFixture();
    const { calls } = serveWebhooks({ webhooks: [hook] });
    const { user } = renderWebhooks();
    await user.click((await card(hook.url)).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test delivery succeeded: HTTP 200 in 42 ms.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${webhooksPath()}/${hook.id}/test`,
    ]);
  });

  it('says why a test delivery failed', async () => {
    const hook = webhookFixture();
    serveWebhooks({
      webhooks: [hook],
      handlers: {
        [`POST ${webhooksPath()}/${hook.id}/test`]: () =>
          jsonResponse(
            200,
            deliveryFixture({
              eventType: 'webhook.test',
              status: 'failed',
              responseCode: 500,
              error: 'The receiver answered HTTP 500.',
            }),
          ),
      },
    });
    const { user } = renderWebhooks();
    await user.click((await card(hook.url)).getByRole('button', { name: 'Send test' }));
    expect(await screen.findByText('Test delivery failed: The receiver answered HTTP 500.')).toBeVisible();
  });

  it('rotates the signing secret after a confirmation and shows the new one once', async () => {
    const hook = webhookFixture();
    const { calls, secret } = serveWebhooks({ webhooks: [hook] });
    const { user } = renderWebhooks();
    await user.click((await card(hook.url)).getByRole('button', { name: `More actions for ${hook.url}` }));
    await user.click(await screen.findByRole('menuitem', { name: 'Rotate secret' }));
    const confirmDialog = await screen.findByRole('dialog', { name: 'Rotate signing secret' });
    expect(confirmDialog.textContent).toContain('The current secret stops working at once');
    await user.click(within(confirmDialog).getByRole('button', { name: 'Rotate secret' }));

    const dialog = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(
      (within(dialog).getByRole('textbox', { name: 'Signing secret' }) as HTMLTextAreaElement).value,
    ).toBe(`${secret}rotated`);
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      `${webhooksPath()}/${hook.id}/secret`,
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(`${secret}rotated`);
  });

  it('deletes a webhook after a confirmation', async () => {
    const hook = webhookFixture({ url: 'https://hooks.example.com/old' });
    const { calls } = serveWebhooks({ webhooks: [hook] });
    const { user } = renderWebhooks();
    await user.click((await card(hook.url)).getByRole('button', { name: `More actions for ${hook.url}` }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    expect(dialog.textContent).toContain(
      'Delete the webhook to https://hooks.example.com/old? Vexil stops sending it events, and its delivery log is deleted.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete webhook' }));

    expect(await screen.findByText('Webhook deleted.')).toBeVisible();
    expect(await screen.findByText('This project has no webhooks yet.')).toBeVisible();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
      `${webhooksPath()}/${hook.id}`,
    ]);
  });

  it(`disables New webhook, and says why, once the project has ${MAX_WEBHOOKS_PER_PROJECT}`, async () => {
    serveWebhooks({
      webhooks: Array.from({ length: MAX_WEBHOOKS_PER_PROJECT }, (_, n) =>
        webhookFixture({ url: `https://hooks.example.com/${n}` }),
      ),
    });
    renderWebhooks();
    await webhookList();
    expect((screen.getByRole('button', { name: 'New webhook' }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByLabelText(`A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks.`),
    ).toBeVisible();
  });
});
