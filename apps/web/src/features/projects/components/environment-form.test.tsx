import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse } from '../../../testing/test-utils';
import { COLOR_MESSAGE, type Environment } from '@vexil/core';
import {
  networkFailure,
  resetOverlays,
  serveProjects,
  type ServeOptions,
  renderProjectAdmin,
} from '../../../testing/projects-test-server';

type Server = ReturnType<typeof serveProjects>;

/** POST and PUT /api/v1/environments/ that save into the served projects. */
function saveHandlers(stateOf: () => Server['state']) {
  const save =
    (status: number) =>
    ({ body }: { body: unknown }) => {
      const state = stateOf();
      const input = body as Environment;
      const project = state.projects.find((p) => p.key === input.projectKey)!;
      const existing = project.environments.find((e) => e.id === input.id);
      const hex = 'ab'.repeat(16);
      const saved: Environment = {
        ...input,
        lastModifiedDate: '2026-02-01T00:00:00.000Z',
        id: input.id ?? '00000000-0000-4000-8000-000000000777',
        isProduction: input.production,
        sdkCanCreateFeatures: input.sdkCanCreateFeatures ?? !input.production,
        apiKey: existing?.apiKey ?? `sdk-srv-env-${hex}`,
        jsApiKey: existing?.jsApiKey ?? `sdk-js-env-${hex}`,
      };
      project.environments = existing
        ? project.environments.map((e) => (e.id === saved.id ? saved : e))
        : [...project.environments, saved];
      return jsonResponse(status, saved);
    };
  return { 'POST /api/v1/environments/': save(201), 'PUT /api/v1/environments/': save(200) };
}

function serve(handlers?: ServeOptions['handlers']): Server {
  const server: Server = serveProjects({ handlers: handlers ?? saveHandlers(() => server.state) });
  return server;
}

async function openNewEnvironment() {
  renderProjectAdmin('/admin/projects/web');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New Environment' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create Environment' });
  return { user, dialog };
}

const field = (dialog: HTMLElement, name: RegExp) =>
  within(dialog).getByRole('textbox', { name }) as HTMLInputElement;

describe('Create/Update Environment', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('creates an environment whose key follows its name, with the default colour', async () => {
    const { calls } = serve();
    const { user, dialog } = await openNewEnvironment();
    expect(field(dialog, /^Colour/).value).toBe('#1273de');
    expect(
      within(dialog).getByText('Only Production Users can modify a production environment.'),
    ).toBeVisible();

    await user.type(field(dialog, /^Name/), 'QA Staging');
    expect(field(dialog, /^Key/).value).toBe('qa-staging');
    await user.click(within(dialog).getByRole('checkbox', { name: /Production Environment\?/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));

    expect(await screen.findByText('Environment saved.')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('QA Staging', { selector: 'p' })).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      projectKey: 'web',
      name: 'QA Staging',
      key: 'qa-staging',
      url: '',
      color: '#1273de',
      local: false,
      production: true,
      tags: [],
      sdkCanCreateFeatures: false,
    });
  });

  it('lets SDKs create features by default only outside production, until the admin decides', async () => {
    const { calls } = serve();
    const { user, dialog } = await openNewEnvironment();
    const sdkCreate = () =>
      within(dialog).getByRole('checkbox', { name: /SDKs may create features/ }) as HTMLInputElement;
    const production = () =>
      within(dialog).getByRole('checkbox', { name: /Production Environment\?/ }) as HTMLInputElement;
    expect(within(dialog).getByText(/Off by default in production/)).toBeVisible();
    expect(sdkCreate().checked).toBe(true);
    await user.click(production());
    expect(sdkCreate().checked).toBe(false);
    await user.click(production());
    expect(sdkCreate().checked).toBe(true);
    // Once set by hand it no longer follows the production marker.
    await user.click(sdkCreate());
    await user.click(production());
    await user.click(sdkCreate());
    expect(sdkCreate().checked).toBe(true);
    await user.click(production());
    await user.click(production());
    expect(sdkCreate().checked).toBe(true);

    await user.type(field(dialog, /^Name/), 'Canary');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    expect(await screen.findByText('Environment saved.')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      key: 'canary',
      production: true,
      sdkCanCreateFeatures: true,
    });
  });

  it('keeps an edited key and rejects a url that is not http(s)', async () => {
    const { calls } = serve();
    const { user, dialog } = await openNewEnvironment();
    await user.type(field(dialog, /^Key/), 'My Box');
    await user.type(field(dialog, /^Name/), 'Laptop');
    expect(field(dialog, /^Key/).value).toBe('my-box');
    await user.type(field(dialog, /^URL/), 'ftp://box');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    expect(await within(dialog).findByText('Must be a valid http(s) URL.')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says a colour is not valid when the field is left, keeps it as typed and saves nothing', async () => {
    const { calls } = serve();
    const { user, dialog } = await openNewEnvironment();
    await user.type(field(dialog, /^Name/), 'Blue');
    const colour = field(dialog, /^Colour/);
    await user.clear(colour);
    await user.type(colour, 'blue');
    await user.click(field(dialog, /^URL/));
    expect(await within(dialog).findByText(COLOR_MESSAGE)).toBeVisible();
    expect(colour.value).toBe('blue');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    expect(within(dialog).getByText(COLOR_MESSAGE)).toBeVisible();
    expect(field(dialog, /^Colour/).value).toBe('blue');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(colour);
    await user.type(colour, '#2f9e44');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    expect(await screen.findByText('Environment saved.')).toBeVisible();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ color: '#2f9e44' });
  });

  it('opens the colour picker in place and closes it on Escape, a swatch or a click elsewhere', async () => {
    serve();
    const { user, dialog } = await openNewEnvironment();
    const toggle = within(dialog).getByRole('button', { name: 'Colour picker' });
    const hue = () => within(dialog).queryByRole('slider', { name: 'Hue' });
    expect(hue()).toBeNull();
    await user.click(field(dialog, /^Colour/));
    expect(hue()).toBeVisible();
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // Escape closes the picker, not the modal.
    await user.keyboard('{Escape}');
    expect(hue()).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Create Environment' })).toBeVisible();

    await user.click(toggle);
    expect(hue()).toBeVisible();
    await user.click(field(dialog, /^Name/));
    expect(hue()).toBeNull();

    await user.click(toggle);
    const swatches = within(dialog).getAllByRole('button', { name: '#2f9e44' });
    await user.click(swatches[0]!);
    expect(hue()).toBeNull();
    expect(field(dialog, /^Colour/).value).toBe('#2f9e44');
  });

  it('updates an environment with its key read-only', async () => {
    const { calls, state } = serve();
    renderProjectAdmin('/admin/projects/web');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Update Development' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Environment' });
    expect(field(dialog, /^Key/).readOnly).toBe(true);
    await user.type(field(dialog, /^URL/), 'https://dev.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Update Environment' }));

    expect(await screen.findByText('Environment saved.')).toBeVisible();
    expect(await screen.findByRole('link', { name: 'https://dev.example.com' })).toBeVisible();
    const development = state.projects[0]!.environments.find((e) => e.key === 'dev')!;
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      id: development.id,
      key: 'dev',
      url: 'https://dev.example.com',
      sdkCanCreateFeatures: true,
      // The version the form opened, so that the server can refuse it when someone saved since.
      lastModifiedDate: '2026-01-01T00:00:00.000Z',
    });
  });

  it('offers to reload when someone saved the environment since it was opened', async () => {
    const title =
      'Test User changed this environment after you opened it. Reload to see the changes, then make yours again.';
    const server: Server = serveProjects({
      handlers: {
        'PUT /api/v1/environments/': () => jsonResponse(409, { title, code: 'stale_write' }),
      },
    });
    renderProjectAdmin('/admin/projects/web');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Update Development' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Environment' });
    await user.type(field(dialog, /^URL/), 'https://mine.example.com');
    // Meanwhile someone else gave the environment a URL.
    const development = server.state.projects[0]!.environments.find((e) => e.key === 'dev')!;
    Object.assign(development, {
      url: 'https://theirs.example.com',
      lastModifiedDate: '2026-03-01T00:00:00.000Z',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Update Environment' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(title);
    // The edit stays until the user chooses to drop it.
    expect(field(dialog, /^URL/).value).toBe('https://mine.example.com');
    await user.click(within(alert).getByRole('button', { name: 'Reload' }));

    await waitFor(() => expect(field(dialog, /^URL/).value).toBe('https://theirs.example.com'));
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Update Environment' }));
    await waitFor(() =>
      expect(server.calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({
        url: 'https://theirs.example.com',
        lastModifiedDate: '2026-03-01T00:00:00.000Z',
      }),
    );
  });

  it("shows the server's message in the form, or the connectivity message", async () => {
    let offline = false;
    serve({
      'POST /api/v1/environments/': () =>
        offline ? networkFailure() : jsonResponse(400, { title: 'Only 2 environment(s) allowed.' }),
    });
    const { user, dialog } = await openNewEnvironment();
    await user.type(field(dialog, /^Name/), 'Extra');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'Only 2 environment(s) allowed.',
    );

    offline = true;
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('alert').textContent).toContain(
        'We had connectivity issues, please try again.',
      ),
    );
  });

  it('says a key already taken once, under the Key field, not again above the form', async () => {
    const title = 'An environment with the key "development" already exists in this project.';
    serve({
      'POST /api/v1/environments/': () =>
        jsonResponse(400, { title, errors: [{ field: 'key', message: title }], code: 'invalid' }),
    });
    const { user, dialog } = await openNewEnvironment();
    await user.type(field(dialog, /^Name/), 'Development');
    await user.click(within(dialog).getByRole('button', { name: 'Create Environment' }));
    await waitFor(() => expect(field(dialog, /^Key/).getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getAllByText(title)).toHaveLength(1);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(screen.getAllByText(title)).toHaveLength(1);
  });
});
