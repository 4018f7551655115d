import { notifications } from '@mantine/notifications';
import { closeAllModals } from '../lib/modals';
import {
  environmentRoute,
  InEnvironment,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
  withSdkKeys,
} from './test-utils';
import { FeatureList } from '../features/feature-list/components/feature-list';
import {
  defaultVariants,
  describeRules,
  normaliseFeatureKey,
  targetingStatusOf,
  uniqueFeatureKey,
  type FeatureControl,
  type HomeFeature,
  type FeatureControlInput,
  type FeatureControlToggleInput,
  type InitialPayload,
} from '@vexil/core';

/*
 * Stands in for the features API in the feature list's tests: the initial payload (project "web" with
 * environments "production" and "dev"), the paged list, control saves and switches, the environment's
 * keys, the key check and new features, all over one in-memory list of features.
 */

export type ApiHandler = Parameters<typeof stubApi>[0][string];

const DATE = '2026-01-02T03:04:05.000Z';
/** The version a control gets when the fake server saves it. */
export const SAVED_DATE = '2026-01-03T00:00:00.000Z';
const uuid = (prefix: number, n: number) =>
  `00000000-${String(prefix).padStart(4, '0')}-4000-8000-${String(n).padStart(12, '0')}`;

function control(n: number, environmentKey: string, overrides: Partial<FeatureControl>): FeatureControl {
  const enabled = overrides.enabled ?? false;
  const rules = overrides.rules ?? [
    { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] },
  ];
  const base = { enabled, offVariantKey: 'off', rules };
  return {
    id: uuid(environmentKey === 'production' ? 8001 : 8002, n),
    key: `feature-${n}`,
    environmentKey,
    ...base,
    available: true,
    trafficStatus: 'never',
    targetingStatus: targetingStatusOf(base),
    staleDays: 0,
    rulesDescription: describeRules(base, { on: 'On', off: 'Off' }),
    createdDate: DATE,
    lastModifiedDate: DATE,
    statistics: { lastImpressionDate: null, impressions: { today: 0 }, variants: {} },
    ...overrides,
  };
}

/**
 * Feature `n` ("Feature 001"…), with an off control in both environments unless told otherwise, as the
 * list shows it (with when it last changed).
 */
export function featureFixture(
  n: number,
  overrides: Partial<Omit<HomeFeature, 'controls'>> = {},
  controls: { production?: Partial<FeatureControl>; dev?: Partial<FeatureControl> } = {},
): HomeFeature {
  const key = overrides.key ?? `feature-${String(n).padStart(3, '0')}`;
  return {
    id: uuid(7000, n),
    name: `Feature ${String(n).padStart(3, '0')}`,
    key,
    description: '',
    permanent: false,
    variants: defaultVariants(),
    tags: [],
    goals: [],
    jiraIssues: [],
    jiraIssueKeys: [],
    maintainer: null,
    projectKey: 'web',
    project: { key: 'web', name: 'Web shop' },
    bookmarked: false,
    archived: false,
    createdDate: DATE,
    lastModifiedDate: DATE,
    lastChangedDate: DATE,
    ...overrides,
    controls: {
      production: control(n, 'production', { key, ...controls.production }),
      dev: control(n, 'dev', { key, ...controls.dev }),
    },
  };
}

/** `count` features named Feature 001, Feature 002, … */
export function manyFeatures(count: number): HomeFeature[] {
  return Array.from({ length: count }, (_, index) => featureFixture(index + 1));
}

export type ServeFeaturesOptions = {
  payload?: InitialPayload;
  features?: HomeFeature[];
  handlers?: Record<string, ApiHandler>;
};

const LIST_PATH = /^\/api\/v1\/projects\/web\/environments\/([^/]+)\/features$/;

/** Serves the features API from `state.features`; returns the call log and the state. */
export function serveFeatures(options: ServeFeaturesOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state = { features: options.features ?? [] };
  const project = withSdkKeys(payload.projects[0]!);

  // The list as the server answers it: searched, filtered, sorted (name by default, ties by key), paged.
  const list: ApiHandler = ({ url }) => {
    const environmentKey = decodeURIComponent(LIST_PATH.exec(url.pathname)?.[1] ?? '');
    const params = url.searchParams;
    const text = (params.get('query') ?? '').toLowerCase();
    const page = Number(params.get('page') ?? 0);
    const pageSize = Number(params.get('pageSize') ?? 50);
    const tags = params.getAll('tag');
    const onOff = params.get('state');
    const stale = params.get('stale');
    const targeting = params.get('targeting');
    const sortBy = (params.get('sortBy') ?? 'name') as 'name' | 'key' | 'lastChanged';
    const direction = params.get('sortDirection') ?? (sortBy === 'lastChanged' ? 'desc' : 'asc');
    const matching = state.features.filter((feature) => {
      const control = feature.controls[environmentKey];
      return (
        [feature.name, feature.key, feature.description].some((field) =>
          field.toLowerCase().includes(text),
        ) &&
        tags.every((tag) => feature.tags.includes(tag)) &&
        (onOff === null || control?.enabled === (onOff === 'on')) &&
        (stale === null || (control?.trafficStatus === 'inactive') === (stale === 'true')) &&
        (targeting === null || control?.targetingStatus === targeting)
      );
    });
    const value = (feature: HomeFeature) =>
      sortBy === 'lastChanged' ? feature.lastChangedDate : sortBy === 'key' ? feature.key : feature.name;
    const sign = direction === 'asc' ? 1 : -1;
    matching.sort(
      (a, b) =>
        sign * (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : 0) ||
        a.name.localeCompare(b.name) ||
        a.key.localeCompare(b.key),
    );
    const content = matching.slice(page * pageSize, (page + 1) * pageSize).map((feature) => ({
      ...feature,
      controls: { [environmentKey]: feature.controls[environmentKey]! },
    }));
    return jsonResponse(200, {
      content,
      last: (page + 1) * pageSize >= matching.length,
      page,
      pageSize,
      totalElements: matching.length,
    });
  };

  // The tags of the features served, each once, alphabetically.
  const tagList: ApiHandler = () =>
    jsonResponse(200, [...new Set(state.features.flatMap((feature) => feature.tags))].sort());

  // Whether a new feature may have a key, against the features served.
  const keyCheck: ApiHandler = ({ url }) => {
    const key = normaliseFeatureKey(url.searchParams.get('key') ?? '');
    const taken = state.features.map((feature) => feature.key);
    return jsonResponse(200, { key, taken: taken.includes(key), freeKey: uniqueFeatureKey(key, taken) });
  };

  /** Stores the control `id` changed by `change`, as the server answers it. */
  const changeControl = (id: string, change: (control: FeatureControl) => Partial<FeatureControl>) => {
    for (const feature of state.features) {
      for (const [environmentKey, existing] of Object.entries(feature.controls)) {
        if (existing.id !== id) continue;
        const saved = { ...existing, ...change(existing), lastModifiedDate: SAVED_DATE };
        saved.targetingStatus = targetingStatusOf(saved);
        saved.rulesDescription = describeRules(saved, { on: 'On', off: 'Off' });
        feature.controls[environmentKey] = saved;
        return jsonResponse(200, saved);
      }
    }
    return jsonResponse(404, { title: 'Not found' });
  };
  const saveControl: ApiHandler = ({ body }) => {
    const { id, enabled, offVariantKey, rules } = body as FeatureControlInput;
    return changeControl(id, () => ({ enabled, offVariantKey, rules }));
  };
  // PUT /api/v1/feature-controls/{id}/enabled for every control served from the start.
  const toggles = Object.fromEntries(
    state.features.flatMap((feature) =>
      Object.values(feature.controls).map((control): [string, ApiHandler] => [
        `PUT /api/v1/feature-controls/${control.id}/enabled`,
        ({ body }) =>
          changeControl(control.id, () => ({ enabled: (body as FeatureControlToggleInput).enabled })),
      ]),
    ),
  );

  const calls = stubApi({
    'GET /api/v1/initial': () => jsonResponse(200, payload),
    ...Object.fromEntries(
      project.environments.map((environment) => [
        `GET /api/v1/projects/web/environments/${environment.key}/features`,
        list,
      ]),
    ),
    ...Object.fromEntries(
      project.environments.map((environment) => [
        `GET /api/v1/environments/web/${environment.key}`,
        () => jsonResponse(200, environment),
      ]),
    ),
    'PUT /api/v1/feature-controls/': saveControl,
    'GET /api/v1/projects/web/feature-key': keyCheck,
    'GET /api/v1/projects/web/tags': tagList,
    ...toggles,
    ...options.handlers,
  });
  return { calls, state, project };
}

/** The GET requests of the feature list, as path and query. */
export function listRequests(calls: ReturnType<typeof stubApi>, environmentKey = 'dev') {
  return calls
    .filter(
      (call) =>
        call.method === 'GET' &&
        call.path.startsWith(`/api/v1/projects/web/environments/${environmentKey}/features`),
    )
    .map((call) => new URL(call.path, 'http://localhost').searchParams);
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}

/** The feature list at `path` (an environment's `/features`), as the app's route mounts it. */
export function renderFeatureList(path: string) {
  return renderRoute(
    environmentRoute([
      {
        path: 'features',
        element: (
          <InEnvironment>
            {({ project, environment }) => <FeatureList project={project} environment={environment} />}
          </InEnvironment>
        ),
      },
    ]),
    path,
  );
}
