import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, withSdkKeys } from '../../../testing/test-utils';
import type { Project } from '@vexil/core';
import {
  networkFailure,
  resetOverlays,
  serveProjects,
  renderProjectAdmin,
} from '../../../testing/projects-test-server';

const pathOf = (router: ReturnType<typeof renderProjectAdmin>['router']) => router.state.location.pathname;

async function openNewProject() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'New Project' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create Project' });
  const name = within(dialog).getByRole('textbox', { name: /^Name/ }) as HTMLInputElement;
  const key = within(dialog).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement;
  return { user, dialog, name, key };
}

describe('Create/Update Project', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('derives the key from the name and suffixes a key that is taken', async () => {
    serveProjects();
    renderProjectAdmin('/admin/projects');
    const { user, name, key } = await openNewProject();
    await user.type(name, 'Mobile App');
    expect(key.value).toBe('ma');
    await user.clear(name);
    await user.type(name, 'Web');
    // "web" belongs to the Web shop project.
    expect(key.value).toBe('web1');
  });

  it('stops following the name once the key is edited, and normalises what is typed', async () => {
    serveProjects();
    renderProjectAdmin('/admin/projects');
    const { user, name, key } = await openNewProject();
    await user.type(name, 'Checkout');
    expect(key.value).toBe('check');
    await user.clear(key);
    await user.type(key, 'Sh op!xyz');
    expect(key.value).toBe('shopx');
    await user.type(name, ' Service');
    expect(key.value).toBe('shopx');
  });

  it('requires a name and a key', async () => {
    const { calls } = serveProjects();
    renderProjectAdmin('/admin/projects');
    const { user, dialog } = await openNewProject();
    await user.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect(await within(dialog).findByText('Name is required')).toBeVisible();
    expect(within(dialog).getByText('Key is required')).toBeVisible();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('saves, says "Project saved.", lands on the new project and refreshes the session', async () => {
    const { calls, state } = serveProjects({
      handlers: {
        'POST /api/v1/projects/': ({ body }) => {
          const { name, key } = body as { name: string; key: string };
          const created: Project = {
            ...withSdkKeys(state.projects[0]!),
            id: '00000000-0000-4000-8000-000000000900',
            name,
            key,
            environments: [],
          };
          state.projects = [...state.projects, created];
          return jsonResponse(201, created);
        },
      },
    });
    const { router } = renderProjectAdmin('/admin/projects');
    const { user, dialog, name } = await openNewProject();
    await user.type(name, 'Mobile App');
    await user.click(within(dialog).getByRole('button', { name: 'Create Project' }));

    expect(await screen.findByText('Project saved.')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Mobile App' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/projects/ma');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Mobile App', key: 'ma' });
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/v1/initial')).toHaveLength(2));
  });

  it("shows the server's message in the form, and its field errors on the fields", async () => {
    const title = 'A project with the key "web" already exists.';
    serveProjects({
      handlers: {
        'POST /api/v1/projects/': () =>
          jsonResponse(400, { title, errors: [{ field: 'key', message: 'This key is taken.' }] }),
      },
    });
    renderProjectAdmin('/admin/projects');
    const { user, dialog, name, key } = await openNewProject();
    await user.type(name, 'Another');
    await user.clear(key);
    await user.type(key, 'web');
    await user.click(within(dialog).getByRole('button', { name: 'Create Project' }));

    expect((await within(dialog).findByRole('alert')).textContent).toContain(title);
    expect(within(dialog).getByText('This key is taken.')).toBeVisible();
    // The form shows it: no toast repeats it.
    expect(screen.getAllByText(title)).toHaveLength(1);
  });

  it('says so when the server cannot be reached', async () => {
    serveProjects({ handlers: { 'POST /api/v1/projects/': networkFailure } });
    renderProjectAdmin('/admin/projects');
    const { user, dialog, name } = await openNewProject();
    await user.type(name, 'Offline');
    await user.click(within(dialog).getByRole('button', { name: 'Create Project' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'We had connectivity issues, please try again.',
    );
  });

  it('updates the name with the key read-only', async () => {
    const { calls, state } = serveProjects({
      handlers: {
        'PUT /api/v1/projects/': ({ body }) => {
          const { name } = body as { name: string };
          state.projects = state.projects.map((p) => ({ ...p, name }));
          return jsonResponse(200, state.projects[0]);
        },
      },
    });
    const { router } = renderProjectAdmin('/admin/projects/web');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Update Project' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update Project' });
    const key = within(dialog).getByRole('textbox', { name: /^Key/ }) as HTMLInputElement;
    expect(key.readOnly).toBe(true);
    expect(key.value).toBe('web');
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Web store');
    await user.click(within(dialog).getByRole('button', { name: 'Update Project' }));

    expect(await screen.findByText('Project saved.')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Web store' })).toBeVisible();
    expect(pathOf(router)).toBe('/admin/projects/web');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      id: state.projects[0]!.id,
      name: 'Web store',
      key: 'web',
      // The version the form opened, so that the server refuses it when someone saved since.
      lastModifiedDate: '2026-01-01T00:00:00.000Z',
    });
  });
});
