import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import {
  allFlagsOn,
  environmentRoute,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
} from '../../testing/test-utils';
import { EnvironmentExperimentStatsPage } from './environment-experiment-stats-page';
import { EnvironmentExperimentsPage } from './environment-experiments-page';

/** The experiments entries of the route table, below the environment frame. */
const routes: RouteObject[] = [
  environmentRoute([
    { path: 'experiments', element: <EnvironmentExperimentsPage /> },
    { path: 'experiments/:experimentId/stats', element: <EnvironmentExperimentStatsPage /> },
  ]),
];

const EXPERIMENT_ID = '00000000-0000-4000-8000-000000008001';

function render(path: string, experiments: boolean) {
  const payload = initialPayload({ flags: { ...allFlagsOn, experiments } });
  const log = stubApi({ 'GET /api/v1/experiments/': () => jsonResponse(200, []) });
  // The environment frame reads the change-request policy (for its banner); the screen's calls are the rest.
  const calls = {
    get all() {
      return log.filter((call) => !call.path.endsWith('/change-request-policy'));
    },
  };
  return { ...renderRoute(routes, path, { session: payload }), calls };
}

describe('/projects/:projectKey/environments/:environmentKey/experiments', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the environment's experiments with flag experiments", async () => {
    const { calls } = render('/projects/web/environments/dev/experiments', true);
    expect(await screen.findByRole('heading', { name: 'Experiments' })).toBeVisible();
    expect(await screen.findByText('No experiments yet')).toBeVisible();
    expect(calls.all[0]!.path).toBe('/api/v1/experiments/?projectKey=web&environmentKey=dev');
  });

  it('says "Access denied." without flag experiments, and asks the server nothing', async () => {
    const { calls } = render('/projects/web/environments/dev/experiments', false);
    expect(await screen.findByRole('heading', { name: 'Access denied.' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Experiments' })).toBeNull();
    expect(calls.all).toHaveLength(0);
  });

  it('says "Access denied." for the statistics page without flag experiments', async () => {
    const { calls } = render(`/projects/web/environments/dev/experiments/${EXPERIMENT_ID}/stats`, false);
    expect(await screen.findByRole('heading', { name: 'Access denied.' })).toBeVisible();
    expect(calls.all).toHaveLength(0);
  });
});
