import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MASKED_SERVER_SDK_KEY, type InitialPayload } from '@vexil/core';
import { HIDDEN_SERVER_KEY_MESSAGE } from '../../../components/api-keys-modal';
import {
  initialPayload,
  jsonResponse,
  projectFixture,
  renderRoute,
  stubApi,
  withSdkKeys,
} from '../../../testing/test-utils';
import { SERVER_KEY_PLACEHOLDER } from '../snippets';
import { HelpPage } from './help-page';

const web = projectFixture('web', 'Web shop', [
  { key: 'dev', name: 'Development' },
  { key: 'production', name: 'Production', production: true },
]);
const api = projectFixture('api', 'Public API', [{ key: 'staging', name: 'Staging' }]);
const withKeys = [web, api].map(withSdkKeys);
const keysOf = (projectKey: string, environmentKey: string) =>
  withKeys.find((p) => p.key === projectKey)!.environments.find((e) => e.key === environmentKey)!;

/**
 * Answers GET /api/v1/environments/{project}/{environment} as the server does; `masked` lists the
 * environments whose server key this user may not see.
 */
function stubEnvironments(masked: string[] = []) {
  const handlers: Parameters<typeof stubApi>[0] = {};
  for (const project of withKeys) {
    for (const environment of project.environments) {
      const path = `${project.key}/${environment.key}`;
      handlers[`GET /api/v1/environments/${path}`] = () =>
        jsonResponse(
          200,
          masked.includes(path) ? { ...environment, apiKey: MASKED_SERVER_SDK_KEY } : environment,
        );
    }
  }
  return stubApi(handlers);
}

function renderHelp(
  current: { projectKey: string; environmentKey: string } | null = {
    projectKey: 'web',
    environmentKey: 'dev',
  },
  payload: InitialPayload = initialPayload({ projects: [web, api] }),
) {
  const project = current && payload.projects.find((p) => p.key === current.projectKey)!;
  const environment = project && project.environments.find((e) => e.key === current!.environmentKey)!;
  return renderRoute(
    {
      path: '/help',
      element: (
        <HelpPage
          projects={payload.projects}
          current={project && environment ? { project, environment } : null}
        />
      ),
    },
    '/help',
    { session: payload },
  );
}

const field = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const environmentSelect = () => screen.getByRole('combobox', { name: 'Environment' }) as HTMLInputElement;
const example = (name: string) => screen.getByRole('region', { name: `${name} example` }).textContent ?? '';

describe('Help page', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('has a table of contents linking to each section’s heading, and the API reference', async () => {
    stubEnvironments();
    renderHelp();
    expect(await screen.findByRole('heading', { name: 'Help', level: 1 })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'Node SDK' });
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    const links = within(toc).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Getting started',
      'Connecting an SDK',
      'Node SDK',
      'Browser client',
      'OpenFeature (OFREP)',
      'Targeting',
      'Splits',
      'Segments',
    ]);
    for (const link of links) {
      const id = link.getAttribute('href')!.slice(1);
      // Each target is a heading of that name, which links to itself.
      const heading = document.getElementById(id)!;
      expect(heading.tagName).toMatch(/^H[23]$/);
      expect(heading.textContent).toBe(link.textContent);
      expect(within(heading).getByRole('link').getAttribute('href')).toBe(`#${id}`);
    }
    const reference = screen.getByRole('link', { name: /API reference/ });
    expect(reference.getAttribute('href')).toBe('/api/docs');
    expect(reference.getAttribute('target')).toBe('_blank');
  });

  it('fills the current environment’s keys and this Vexil’s address into the examples', async () => {
    stubEnvironments();
    renderHelp();
    const dev = keysOf('web', 'dev');
    expect(
      (await screen.findByRole('textbox', { name: 'JS Client Key' })) as HTMLInputElement,
    ).toHaveProperty('value', dev.jsApiKey);
    expect(field('Server Key').value).toBe(dev.apiKey);
    expect(field('Server Key').disabled).toBe(false);
    expect(environmentSelect().value).toBe('Development (Web shop)');

    const origin = window.location.origin;
    expect(field('Base URL').value).toBe(origin);
    expect(example('Node SDK')).toContain(`apiKey: '${dev.apiKey}'`);
    expect(example('Node SDK')).toContain(`baseUrl: '${origin}'`);
    expect(example('Node SDK')).toContain(`eventsUrl: '${origin}'`);
    expect(example('Browser client')).toContain(`'${dev.jsApiKey}'`);
    expect(example('Browser client')).toContain(`baseUrl: '${origin}'`);
    expect(example('Browser client')).not.toContain(dev.apiKey);
    expect(example('OFREP request')).toContain(`'${origin}/ofrep/v1/evaluate/flags/my-feature'`);
    expect(example('OFREP request')).toContain(`'Authorization: Bearer ${dev.apiKey}'`);
  });

  it('shows a masked server key as hidden and keeps it out of the examples', async () => {
    stubEnvironments(['web/dev']);
    const payload = initialPayload({ projects: [web, api] });
    payload.principalUser.authorities = ['ROLE_ORGANISATION_READONLY_USER'];
    renderHelp(undefined, payload);
    const dev = keysOf('web', 'dev');
    await screen.findByRole('textbox', { name: 'JS Client Key' });
    expect(field('JS Client Key').value).toBe(dev.jsApiKey);
    expect(field('Server Key').value).toBe(MASKED_SERVER_SDK_KEY);
    expect(field('Server Key').disabled).toBe(true);
    expect(screen.getByText(HIDDEN_SERVER_KEY_MESSAGE)).toBeVisible();
    expect((screen.getByRole('button', { name: 'Copy Server Key' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(example('Node SDK')).toContain(`apiKey: '${SERVER_KEY_PLACEHOLDER}'`);
    expect(example('OFREP request')).toContain(`Bearer ${SERVER_KEY_PLACEHOLDER}`);
    for (const name of ['Node SDK', 'Browser client', 'OFREP request'])
      expect(example(name)).not.toContain('*');
    expect(example('Browser client')).toContain(dev.jsApiKey);
  });

  it('switches to another environment of the session’s projects', async () => {
    const calls = stubEnvironments(['api/staging']);
    renderHelp();
    await screen.findByRole('textbox', { name: 'JS Client Key' });
    const user = userEvent.setup();
    await user.click(environmentSelect());
    const listbox = await screen.findByRole('listbox');
    // Grouped by project.
    expect(within(listbox).getByRole('option', { name: 'Production (Web shop)' })).toBeVisible();
    await user.click(within(listbox).getByRole('option', { name: 'Staging (Public API)' }));

    const staging = keysOf('api', 'staging');
    await vi.waitFor(() => expect(field('JS Client Key').value).toBe(staging.jsApiKey));
    expect(calls.map((call) => call.path)).toContain('/api/v1/environments/api/staging');
    expect(example('Browser client')).toContain(staging.jsApiKey);
    expect(example('Browser client')).not.toContain(keysOf('web', 'dev').jsApiKey);
    // This user may not see Staging's server key: hidden there, though Development's was shown.
    expect(field('Server Key').disabled).toBe(true);
    expect(example('Node SDK')).toContain(SERVER_KEY_PLACEHOLDER);
  });

  it('says why there is nothing to connect without an environment', async () => {
    stubEnvironments();
    renderHelp(null, initialPayload({ projects: [] }));
    expect(await screen.findByText('No environment yet')).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'JS Client Key' })).toBeNull();
    const toc = screen.getByRole('navigation', { name: 'On this page' });
    expect(within(toc).queryByRole('link', { name: 'Node SDK' })).toBeNull();
  });

  it('says when the keys could not be loaded, and retries', async () => {
    let fail = true;
    const dev = keysOf('web', 'dev');
    stubApi({
      'GET /api/v1/environments/web/dev': () =>
        fail ? jsonResponse(503, { title: 'The database is unavailable.' }) : jsonResponse(200, dev),
    });
    renderHelp();
    expect(await screen.findByText('We could not load the keys of Development.')).toBeVisible();
    expect(screen.getByText('The database is unavailable.')).toBeVisible();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(field('JS Client Key').value).toBe(dev.jsApiKey));
  });
});
