import dayjs from 'dayjs';
import { ModalsProvider } from '@mantine/modals';
import { Notifications, notifications } from '@mantine/notifications';
import { Outlet, useParams, type RouteObject } from 'react-router';
import { NotFound } from '../../../../components/not-found';
import { FlagsProvider } from '../../../../lib/flags';
import { closeAllModals } from '../../../../lib/modals';
import { SessionProvider } from '../../../../lib/session';
import { initialPayload, jsonResponse, renderRoutes, stubApi } from '../../../../test-utils';
import type {
  AuditPage,
  Authority,
  Feature,
  FeatureControl,
  InitialPayload,
  VariantDailyImpressions,
} from '@vexil/core';
import { FeatureDetailPage } from './feature-detail-page';

type Handlers = Parameters<typeof stubApi>[0];

export const FEATURE_ID = '00000000-0000-4000-8000-00000000f001';
// Local times, so the formatted dates read the same in every time zone.
const CREATED = new Date(2026, 2, 3, 16, 5).toISOString();
const MODIFIED = new Date(2026, 2, 10, 9, 30).toISOString();

/** A control as the server sends it: off, never evaluated, everyone gets On once switched on. */
export function controlFixture(
  environmentKey: string,
  overrides: Partial<FeatureControl> = {},
): FeatureControl {
  return {
    id:
      environmentKey === 'production'
        ? '00000000-0000-4000-8000-00000000c001'
        : '00000000-0000-4000-8000-00000000c002',
    key: 'checkout',
    environmentKey,
    enabled: false,
    offVariantKey: 'off',
    rules: [{ defaultRule: true, audience: null, variantSplits: [{ variantKey: 'on', split: 100 }] }],
    available: false,
    trafficStatus: 'never',
    targetingStatus: 'off',
    staleDays: 0,
    rulesDescription: 'Off: everyone gets Off.',
    createdDate: CREATED,
    lastModifiedDate: CREATED,
    statistics: {
      lastImpressionDate: null,
      impressions: { today: 0 },
      variants: { on: { impressions: { today: 0 } }, off: { impressions: { today: 0 } } },
    },
    ...overrides,
  };
}

/** The "checkout" feature of the test payload's "web" project, with a control in both environments. */
export function featureFixture(overrides: Partial<Feature> = {}): Feature {
  return {
    id: FEATURE_ID,
    name: 'New checkout',
    key: 'checkout',
    description: 'The one-page checkout.',
    permanent: false,
    variants: [
      { key: 'on', name: 'On', description: '' },
      { key: 'off', name: 'Off', description: '' },
    ],
    tags: ['payments'],
    goals: [],
    jiraIssues: [{ key: 'SHOP-12', title: 'Checkout redesign', url: 'https://issues.example.com/SHOP-12' }],
    jiraIssueKeys: ['SHOP-12'],
    maintainer: {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Demo Admin',
      email: 'admin@example.com',
    },
    projectKey: 'web',
    project: { key: 'web', name: 'Web shop' },
    bookmarked: false,
    archived: false,
    controls: { production: controlFixture('production'), dev: controlFixture('dev') },
    createdDate: CREATED,
    lastModifiedDate: MODIFIED,
    ...overrides,
  };
}

/** 30 days of impressions, each variant's list given (padded with zeros at the start). */
export function impressionsFixture(
  datasets: Record<string, number[]> = { On: [], Off: [] },
): VariantDailyImpressions {
  const labels = Array.from({ length: 30 }, (_, day) =>
    dayjs('2026-02-01').add(day, 'day').format('YYYY-MM-DD'),
  );
  return {
    labels,
    datasets: Object.entries(datasets).map(([label, values]) => ({
      label,
      data: [...Array<number>(30 - values.length).fill(0), ...values],
    })),
  };
}

export function auditPageFixture(page: number, titles: string[], last = true): AuditPage {
  return {
    content: titles.map((title, index) => ({
      id: `00000000-0000-4000-8000-${String(9000 + page * 100 + index).padStart(12, '0')}`,
      title,
      description: 'admin@example\\.com changed **New checkout**\\.',
      createdDate: new Date(Date.now() - 3 * 60 * 1000).toISOString(),
    })),
    last,
    page,
    pageSize: 50,
  };
}

function Layout({ payload }: { payload: InitialPayload }) {
  return (
    <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
      <Notifications />
      <SessionProvider session={payload}>
        <FlagsProvider flags={payload.flags}>
          <Outlet />
        </FlagsProvider>
      </SessionProvider>
    </ModalsProvider>
  );
}

/** Stands in for the app's route wrapper: the project and environment of the address, from the session. */
function DetailRoute({ payload }: { payload: InitialPayload }) {
  const { projectKey, environmentKey, featureKey = '', featureDetailPageTab } = useParams();
  const project = payload.projects.find((p) => p.key === projectKey);
  const environment = project?.environments.find((e) => e.key === environmentKey);
  if (!project || !environment) return <NotFound />;
  return (
    <FeatureDetailPage
      project={project}
      environment={environment}
      featureKey={featureKey}
      tab={featureDetailPageTab}
    />
  );
}

export type ServerState = { feature: Feature };

export type RenderOptions = {
  payload?: InitialPayload;
  feature?: Feature;
  /** Extra or replacing handlers; as a function they may read and change what the server holds. */
  handlers?: Handlers | ((state: ServerState) => Handlers);
};

// jsdom has no font loading API, which Mantine's autosizing text areas listen to.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: {
      ready: Promise.resolve(),
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    },
  });
}

/**
 * Renders the feature detail page at `path` with a session, the modal stack and toasts. The API answers
 * the feature (GET and PUT), no impressions and an empty audit log unless `handlers` say otherwise.
 */
export function renderFeatureDetail(path: string, options: RenderOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state: ServerState = { feature: options.feature ?? featureFixture() };
  const calls = stubApi({
    'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, state.feature),
    'PUT /api/v1/projects/web/features': ({ body }) => {
      state.feature = { ...state.feature, ...(body as Partial<Feature>) };
      return jsonResponse(200, state.feature);
    },
    'GET /api/v1/variant-daily-impressions': () => jsonResponse(200, impressionsFixture()),
    'GET /api/v1/audit-items': () => jsonResponse(200, auditPageFixture(0, [])),
    'GET /api/v1/projects/web/tags': () => jsonResponse(200, ['payments', 'checkout']),
    'GET /api/v1/members': () =>
      jsonResponse(200, [
        { id: '00000000-0000-4000-8000-000000000001', name: 'Demo Admin', email: 'admin@example.com' },
        { id: '00000000-0000-4000-8000-000000000002', name: 'Ada Editor', email: 'ada@example.com' },
      ]),
    ...(typeof options.handlers === 'function' ? options.handlers(state) : options.handlers),
  });
  const routes: RouteObject[] = [
    {
      element: <Layout payload={payload} />,
      children: [
        {
          path: 'projects/:projectKey/environments/:environmentKey/features/:featureKey/:featureDetailPageTab?',
          element: <DetailRoute payload={payload} />,
        },
        {
          path: 'projects/:projectKey/environments/:environmentKey/features',
          element: <h1>Feature list</h1>,
        },
        { path: '*', element: <NotFound /> },
      ],
    },
  ];
  const rendered = renderRoutes(routes, path);
  return { ...rendered, calls, state, pathname: () => rendered.router.state.location.pathname };
}

/** A payload whose user holds only `authority`. */
export function payloadFor(authority: Authority): InitialPayload {
  const payload = initialPayload();
  return { ...payload, principalUser: { ...payload.principalUser, authorities: [authority] } };
}

/** Toasts and the modal stack outlive a rendered tree; each test starts without them. */
export function resetOverlays(): void {
  notifications.clean();
  closeAllModals();
}

export const DETAIL = '/projects/web/environments/production/features/checkout';
