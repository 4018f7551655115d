import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { AUTHORITIES, MASKED_SERVER_SDK_KEY, type Feature, type InitialPayload } from '@vexil/core';
import { controlFixture, featureFixture } from '../../../testing/test-fixtures';
import {
  environmentRoute,
  initialPayload,
  InEnvironment,
  jsonResponse,
  renderRoute,
  stubApi,
  withSdkKeys,
} from '../../../testing/test-utils';
import { progressKey } from '../progress';
import { TutorialPage } from './tutorial-page';

/*
 * The Tutorial of the test payload's "web" project, environment "dev", against a stand-in API: the
 * project's features (listed, created, each read back with its controls), the key check and the
 * environment's keys.
 */

const PATH = '/projects/web/environments/dev/tutorial';
const session = initialPayload();
const project = session.projects[0]!;
const dev = project.environments.find((environment) => environment.key === 'dev')!;
const devKeys = withSdkKeys(project).environments.find((environment) => environment.key === 'dev')!;
const owner = { userId: session.principalUser.id, projectId: project.id, environmentId: dev.id };

/** The "checkout" feature as the server shows it, evaluated in dev by an SDK or not. */
function checkout(seen = false): Feature {
  const dev = controlFixture(
    'dev',
    seen
      ? {
          available: true,
          statistics: { ...controlFixture('dev').statistics, lastImpressionDate: '2026-03-11T10:00:00.000Z' },
        }
      : {},
  );
  return featureFixture({ controls: { production: controlFixture('production'), dev } });
}

type Options = {
  features?: Feature[];
  /** What each read of a feature answers, in turn (the last one repeats). */
  reads?: (() => Response)[];
  apiKey?: string;
};

function serveTutorial({ features = [], reads, apiKey = devKeys.apiKey }: Options = {}) {
  const stored = [...features];
  let read = 0;
  return stubApi({
    'GET /api/v1/projects/web/features': () => jsonResponse(200, stored),
    'GET /api/v1/projects/web/feature-key': ({ url }) => {
      const key = url.searchParams.get('key') ?? '';
      const taken = stored.some((feature) => feature.key === key);
      return jsonResponse(200, { key, taken, freeKey: taken ? `${key}-2` : key });
    },
    'POST /api/v1/projects/web/features': ({ body }) => {
      const { name, key } = body as { name: string; key: string };
      const created = featureFixture({
        name,
        key,
        controls: { production: controlFixture('production', { key }), dev: controlFixture('dev', { key }) },
      });
      stored.push(created);
      return jsonResponse(201, created);
    },
    'GET /api/v1/environments/web/dev': () => jsonResponse(200, { ...devKeys, apiKey }),
    ...Object.fromEntries(
      ['checkout', 'my-first-feature'].map((key) => [
        `GET /api/v1/projects/web/features/${key}`,
        () => {
          if (reads) return reads[Math.min(read++, reads.length - 1)]!();
          const feature = stored.find((candidate) => candidate.key === key);
          return feature ? jsonResponse(200, feature) : jsonResponse(404, { title: 'Feature not found' });
        },
      ]),
    ),
  });
}

function renderTutorial(payload: InitialPayload = session) {
  const result = renderRoute(
    environmentRoute([
      {
        path: 'tutorial',
        element: (
          <InEnvironment>
            {({ project, environment }) => (
              <TutorialPage project={project} environment={environment} user={payload.principalUser} />
            )}
          </InEnvironment>
        ),
      },
    ]),
    PATH,
    { session: payload },
  );
  return { ...result, user: userEvent.setup() };
}

const stepHeading = () => screen.getByRole('heading', { level: 2 }).textContent;
const language = () =>
  (
    screen
      .getByRole('radiogroup', { name: 'SDK language' })
      .querySelector('input:checked') as HTMLInputElement | null
  )?.value;
const program = () => screen.getByRole('region', { name: /program$/ }).textContent ?? '';
const store = (progress: object) => localStorage.setItem(progressKey(owner), JSON.stringify(progress));

describe('Tutorial', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.clean();
  });

  it('starts at step 1, creates the feature and shows Java code filled in with this server and the environment’s server key', async () => {
    const calls = serveTutorial();
    const { user } = renderTutorial();

    expect(stepHeading()).toBe('Step 1: Create a feature');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('value', 'My first feature');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Key' })).toHaveProperty('value', 'my-first-feature'),
    );
    await user.click(screen.getByRole('button', { name: 'Create feature' }));

    await screen.findByText('Step 2: Evaluate it');
    expect(calls).toContainEqual({
      method: 'POST',
      path: '/api/v1/projects/web/features',
      body: { name: 'My first feature', key: 'my-first-feature', jiraIssueKeys: [] },
    });
    expect(language()).toBe('java');
    await waitFor(() => expect(program()).toContain(`FeatureflowClient.builder("${devKeys.apiKey}")`));
    expect(program()).toContain(`String vexil = "${window.location.origin}";`);
    expect(program()).toContain('featureflow.evaluate("my-first-feature", user).isOn()');
    expect(screen.getByRole('region', { name: 'Java install' }).textContent).toContain(
      '<artifactId>featureflow-java-sdk</artifactId>',
    );
    expect(screen.getByText('Waiting for my-first-feature to be evaluated in Development')).toBeVisible();
  });

  it('goes on with one of the project’s features', async () => {
    serveTutorial({ features: [checkout()] });
    const { user } = renderTutorial();

    await user.click(await screen.findByRole('combobox', { name: 'Feature' }));
    await user.click(await screen.findByRole('option', { name: 'New checkout (checkout)' }));
    await user.click(screen.getByRole('button', { name: 'Use this feature' }));

    await screen.findByText('Step 2: Evaluate it');
    await waitFor(() => expect(program()).toContain('featureflow.evaluate("checkout", user).isOn()'));
  });

  it('switches language, and keeps the choice and the step for this environment', async () => {
    serveTutorial({ features: [checkout()] });
    store({ step: 2, language: 'java', featureKey: 'checkout' });
    const first = renderTutorial();

    await waitFor(() => expect(program()).toContain('import io.featureflow.client.FeatureflowClient;'));
    await first.user.click(screen.getByText('NodeJS'));
    await waitFor(() => expect(program()).toContain("require('featureflow-node-sdk')"));
    expect(program()).toContain(`apiKey: '${devKeys.apiKey}',`);
    expect(screen.getByRole('region', { name: 'NodeJS install' }).textContent).toBe(
      'npm install featureflow-node-sdk',
    );
    await first.user.click(screen.getByText('Go'));
    await waitFor(() =>
      expect(program()).toContain('"github.com/featureflow/featureflow-go-sdk/featureflow"'),
    );
    await first.user.click(screen.getByText('NodeJS'));
    first.unmount();

    renderTutorial();
    expect(stepHeading()).toBe('Step 2: Evaluate it');
    await waitFor(() => expect(program()).toContain("require('featureflow-node-sdk')"));
    expect(JSON.parse(localStorage.getItem(progressKey(owner))!)).toEqual({
      step: 2,
      language: 'nodejs',
      featureKey: 'checkout',
    });
    // Another environment of the project has progress of its own.
    const production = project.environments.find((environment) => environment.key === 'production')!;
    expect(localStorage.getItem(progressKey({ ...owner, environmentId: production.id }))).toBeNull();
  });

  it('asks every 3 seconds and moves to step 3 once an SDK has evaluated the feature here', async () => {
    const times: number[] = [];
    serveTutorial({
      features: [checkout()],
      reads: [
        () => (times.push(Date.now()), jsonResponse(200, checkout(false))),
        () => (times.push(Date.now()), jsonResponse(200, checkout(true))),
      ],
    });
    store({ step: 2, language: 'java', featureKey: 'checkout' });
    renderTutorial();

    await screen.findByText('Waiting for checkout to be evaluated in Development');
    await screen.findByText('Step 3: Manage it', {}, { timeout: 6_000 });
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(2_900);
    expect(screen.getByText('New checkout has been evaluated in Development')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open the feature list' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/features?q=checkout',
    );
    expect(screen.getByRole('link', { name: 'Open Targeting' }).getAttribute('href')).toBe(
      '/projects/web/environments/dev/features/checkout/targeting',
    );
    expect(screen.getByRole('link', { name: 'Targeting' }).getAttribute('href')).toBe('/help#targeting');
    expect(JSON.parse(localStorage.getItem(progressKey(owner))!)).toMatchObject({ step: 3 });
  }, 10_000);

  it('does not move on when the feature was only registered (available without an evaluation)', async () => {
    const registered = featureFixture({
      controls: { production: controlFixture('production'), dev: controlFixture('dev', { available: true }) },
    });
    serveTutorial({ features: [registered] });
    store({ step: 2, language: 'go', featureKey: 'checkout' });
    renderTutorial();

    await screen.findByText('Waiting for checkout to be evaluated in Development');
    expect(stepHeading()).toBe('Step 2: Evaluate it');
  });

  it('Reset goes back to step 1 with Java', async () => {
    serveTutorial({ features: [checkout(true)] });
    store({ step: 3, language: 'go', featureKey: 'checkout' });
    const { user } = renderTutorial();

    await screen.findByText('Step 3: Manage it');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(stepHeading()).toBe('Step 1: Create a feature');
    expect(JSON.parse(localStorage.getItem(progressKey(owner))!)).toEqual({
      step: 1,
      language: 'java',
      featureKey: null,
    });
  });

  it('shows where the server key goes, and why, to a user who may not see it', async () => {
    serveTutorial({ features: [checkout()], apiKey: MASKED_SERVER_SDK_KEY });
    store({ step: 2, language: 'nodejs', featureKey: 'checkout' });
    renderTutorial();

    await screen.findByText('Your server key is hidden');
    expect(screen.getByText(/only those who may change the flags of this environment/)).toBeVisible();
    expect(program()).toContain("apiKey: '<your server SDK key>',");
    expect(program()).not.toContain(MASKED_SERVER_SDK_KEY);
  });

  it('lets a user who may not create features choose one of the project’s', async () => {
    serveTutorial({ features: [checkout()] });
    const payload = initialPayload();
    payload.principalUser.authorities = [AUTHORITIES.ROLE_ORGANISATION_READONLY_USER];
    renderTutorial(payload);

    expect(screen.getByRole('button', { name: 'Create feature' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/Choose one of the project's features instead\./)).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Use this feature' })).toBeVisible();
  });

  it('offers another feature when the one in step 2 has been deleted', async () => {
    serveTutorial();
    store({ step: 2, language: 'java', featureKey: 'checkout' });
    const { user } = renderTutorial();

    await screen.findByText('checkout no longer exists');
    await user.click(screen.getByRole('button', { name: 'Choose another feature' }));
    expect(stepHeading()).toBe('Step 1: Create a feature');
  });
});
