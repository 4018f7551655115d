import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { closeAllModals } from '../lib/modals';
import { createTestQueryClient, jsonResponse, Providers, stubApi } from './test-utils';
import {
  AUTHORITIES,
  type Authority,
  type Experiment,
  type ExperimentStatistics,
  type Feature,
  type Goal,
} from '@vexil/core';

/*
 * Stands in for the experiments API in the experiments screens' tests: one in-memory list of the
 * experiments of "web"/"dev" (or "web"/"production"), creates, updates (the start and end dates as the
 * server sets them) and archives; the project's features and goals; statistics per experiment.
 * Handlers given to serveExperiments replace the default ones.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

export const PROJECT = { key: 'web', name: 'Web shop', id: '00000000-0000-4000-8000-000000000003' };
export const DEVELOPMENT = { key: 'dev', name: 'Development', production: false, tags: [] as string[] };
export const PRODUCTION = { key: 'production', name: 'Production', production: true, tags: [] as string[] };

export const userWith = (authority: Authority) => ({ authorities: [authority] });
export const ADMIN = userWith(AUTHORITIES.ROLE_ORGANISATION_ADMIN);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function featureOf(id: number, key: string, name: string, variants: string[]): Feature {
  return {
    id: uuid(7000 + id),
    name,
    key,
    description: '',
    permanent: false,
    variants: variants.map((variant) => ({
      key: variant,
      name: variant.charAt(0).toUpperCase() + variant.slice(1),
      description: '',
    })),
    tags: [],
    goals: [],
    jiraIssues: [],
    jiraIssueKeys: [],
    maintainer: null,
    projectKey: 'web',
    project: { key: 'web', name: 'Web shop' },
    bookmarked: false,
    archived: false,
    controls: {},
    createdDate: '2026-01-01T00:00:00.000Z',
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
  };
}

export const CHECKOUT = featureOf(1, 'checkout', 'New checkout', ['on', 'off', 'blue']);
export const BANNER = featureOf(2, 'banner', 'Summer banner', ['red', 'green']);
export const FEATURES = [CHECKOUT, BANNER];

export const GOALS: Goal[] = [
  { key: 'checkout-completed', name: 'Checkout completed' },
  { key: 'signup', name: 'Signed up' },
];

let ids = 0;

/** An experiment of web/dev on "New checkout", off against on, not started. */
export function experimentFixture(name: string, overrides: Partial<Experiment> = {}): Experiment {
  ids += 1;
  return {
    id: uuid(8000 + ids),
    name,
    description: '',
    enabled: false,
    goalKey: 'checkout-completed',
    featureId: CHECKOUT.id,
    featureKey: CHECKOUT.key,
    environmentId: uuid(102),
    environmentKey: 'dev',
    projectKey: 'web',
    control: 'off',
    variation: 'on',
    startDate: null,
    endDate: null,
    archived: false,
    mode: 'fixed',
    results: null,
    feature: { id: CHECKOUT.id, key: CHECKOUT.key, name: CHECKOUT.name },
    ...overrides,
  };
}

/** A running experiment, started `days` days ago. */
export function runningFixture(name: string, days = 3, overrides: Partial<Experiment> = {}): Experiment {
  return experimentFixture(name, {
    enabled: true,
    startDate: new Date(Date.now() - days * 86_400_000 - 60_000).toISOString(),
    ...overrides,
  });
}

/** Statistics of off 1,000/100 against on 1,000/130: valid, "on" winning at 96.45 % (fixed mode). */
export function statisticsFixture(overrides: Partial<ExperimentStatistics> = {}): ExperimentStatistics {
  return {
    confidence: 0.9645,
    pvalue: 0.0355,
    validResult: true,
    winningVariation: 'on',
    zscore: 2.1027,
    variantResults: {
      off: { impressions: 1000, goals: 100, conversionRate: 0.1 },
      on: { impressions: 1000, goals: 130, conversionRate: 0.13 },
    },
    mode: 'fixed',
    invalidReasons: [],
    difference: { estimate: 0.03, lower: 0.0011, upper: 0.0588, level: 0.95 },
    relativeLift: { estimate: 0.3, lower: 0.0167, upper: 0.6609, level: 0.95 },
    sampleRatio: {
      expectedVariationShare: 0.5,
      observedVariationShare: 0.5,
      chiSquare: 0,
      pvalue: 1,
      flagged: false,
      message: null,
    },
    usersInBothVariants: 0,
    daily: [
      {
        day: '2026-03-01',
        variants: { off: { impressions: 400, goals: 38 }, on: { impressions: 410, goals: 50 } },
      },
      {
        day: '2026-03-02',
        variants: { off: { impressions: 1000, goals: 100 }, on: { impressions: 1000, goals: 130 } },
      },
    ],
    ...overrides,
  };
}

type ExperimentBody = Omit<Experiment, 'id'> & { id?: string };

export function serveExperiments(
  options: {
    experiments?: Experiment[];
    statistics?: Record<string, ExperimentStatistics>;
    handlers?: Record<string, ApiHandler>;
  } = {},
) {
  let experiments = [...(options.experiments ?? [])];
  const withFeature = (input: ExperimentBody) => {
    const feature = FEATURES.find((candidate) => candidate.id === input.featureId) ?? CHECKOUT;
    return { featureKey: feature.key, feature: { id: feature.id, key: feature.key, name: feature.name } };
  };
  const calls = stubApi({
    'GET /api/v1/experiments/': ({ url }) =>
      jsonResponse(
        200,
        experiments.filter(
          (e) =>
            e.projectKey === url.searchParams.get('projectKey') &&
            e.environmentKey === url.searchParams.get('environmentKey'),
        ),
      ),
    'POST /api/v1/experiments/': ({ body }) => {
      const input = body as ExperimentBody;
      const created: Experiment = {
        ...experimentFixture(input.name),
        ...input,
        ...withFeature(input),
        startDate: input.enabled ? new Date().toISOString() : null,
      };
      experiments = [created, ...experiments];
      return jsonResponse(201, created);
    },
    'PUT /api/v1/experiments/': ({ body }) => {
      const input = body as Experiment;
      const stored = experiments.find((e) => e.id === input.id);
      if (!stored) return jsonResponse(404, { title: 'There is no such experiment.' });
      const now = new Date().toISOString();
      const saved: Experiment = {
        ...stored,
        ...input,
        ...withFeature(input),
        startDate: stored.startDate ?? (input.enabled ? now : null),
        endDate: input.enabled ? null : stored.startDate ? (stored.endDate ?? now) : null,
      };
      experiments = experiments.map((e) => (e.id === saved.id ? saved : e));
      return jsonResponse(200, saved);
    },
    'GET /api/v1/projects/web/features': ({ url }) => {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      return jsonResponse(
        200,
        FEATURES.filter((f) => f.name.toLowerCase().includes(query) || f.key.includes(query)),
      );
    },
    ...Object.fromEntries(
      FEATURES.map((feature) => [
        `GET /api/v1/projects/web/features/${feature.key}`,
        (() => jsonResponse(200, feature)) satisfies ApiHandler,
      ]),
    ),
    'GET /api/v1/goals': ({ url }) => {
      const query = (url.searchParams.get('query') ?? '').toLowerCase();
      return jsonResponse(
        200,
        GOALS.filter((g) => g.key.includes(query) || g.name.toLowerCase().includes(query)),
      );
    },
    ...Object.fromEntries(
      (options.experiments ?? []).flatMap((experiment) => [
        [
          `DELETE /api/v1/experiments/${experiment.id}`,
          (() => {
            experiments = experiments.filter((e) => e.id !== experiment.id);
            return new Response(null, { status: 204 });
          }) satisfies ApiHandler,
        ],
        [
          `GET /api/v1/experiments/${experiment.id}`,
          (() => {
            const stored = experiments.find((e) => e.id === experiment.id);
            return stored ? jsonResponse(200, stored) : jsonResponse(404, { title: 'Not found' });
          }) satisfies ApiHandler,
        ],
      ]),
    ),
    ...Object.fromEntries(
      Object.entries(options.statistics ?? {}).map(([id, statistics]) => [
        `GET /api/v1/experiment-statistics/${id}`,
        (() => jsonResponse(200, statistics)) satisfies ApiHandler,
      ]),
    ),
    ...options.handlers,
  });
  return { calls, stored: () => experiments };
}

/**
 * Renders `screen` at `path` (matched by `route`) with the modal stack and toasts inside the router, as
 * the app's root layout has them: the form's links work.
 */
export function renderScreen(screen: ReactNode, route: string, path: string) {
  const queryClient = createTestQueryClient();
  const element = (
    <ModalsProvider>
      <Notifications />
      {screen}
    </ModalsProvider>
  );
  const router = createMemoryRouter([{ path: route, element }], { initialEntries: [path] });
  const result = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...result, router, queryClient, user: userEvent.setup() };
}

export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}
