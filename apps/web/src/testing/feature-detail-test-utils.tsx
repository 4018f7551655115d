import { useParams } from 'react-router';
import { Title } from '@mantine/core';
import {
  environmentRoute,
  InEnvironment,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
} from './test-utils';
import { auditPageFixture, featureFixture, impressionsFixture } from './test-fixtures';
import type { Feature, InitialPayload } from '@vexil/core';
import { FeatureDetailPage } from '../features/feature-detail/components/feature-detail-page';

type Handlers = Parameters<typeof stubApi>[0];

/**
 * The page as the app's route mounts it, with stand-ins for the Targeting and History tabs and the on/off switches: the
 * targeting editor and the switch are features of their own, which the app's route puts there (and whose
 * tests render them).
 */
function DetailRoute() {
  const { featureKey = '', featureDetailPageTab } = useParams();
  return (
    <InEnvironment>
      {({ project, environment }) => (
        <FeatureDetailPage
          project={project}
          environment={environment}
          featureKey={featureKey}
          tab={featureDetailPageTab}
          targeting={() => <Title order={2}>Targeting tab in {environment.name}</Title>}
          history={() => <Title order={2}>History tab in {environment.name}</Title>}
          toggle={(feature, control, inEnvironment) => (
            <input
              type="checkbox"
              role="switch"
              aria-label={`${feature.name} on in ${inEnvironment.name}`}
              checked={control.enabled}
              readOnly
            />
          )}
        />
      )}
    </InEnvironment>
  );
}

export type ServerState = { feature: Feature };

/** The title the server refuses a stale settings save with. */
export const STALE_FEATURE_TITLE =
  'Test User changed this feature after you opened it. Reload to see the changes, then make yours again.';

let saves = 0;

export type RenderOptions = {
  payload?: InitialPayload;
  feature?: Feature;
  /** Extra or replacing handlers; as a function they may read and change what the server holds. */
  handlers?: Handlers | ((state: ServerState) => Handlers);
};

/**
 * Renders the feature detail page at `path` with a session, the modal stack and toasts. The API answers
 * the feature (GET, and PUT, which gives it a new version and refuses one based on an older version
 * with 409 `stale_write`), no impressions and an empty audit log unless `handlers` say otherwise.
 */
export function renderFeatureDetail(path: string, options: RenderOptions = {}) {
  const payload = options.payload ?? initialPayload();
  const state: ServerState = { feature: options.feature ?? featureFixture() };
  const calls = stubApi({
    'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, state.feature),
    'PUT /api/v1/projects/web/features': ({ body }) => {
      const input = body as Partial<Feature>;
      if (input.lastModifiedDate !== undefined && input.lastModifiedDate !== state.feature.lastModifiedDate) {
        return jsonResponse(409, { title: STALE_FEATURE_TITLE, code: 'stale_write' });
      }
      saves += 1;
      const lastModifiedDate = new Date(Date.UTC(2026, 3, 1, 0, 0, saves)).toISOString();
      state.feature = { ...state.feature, ...input, lastModifiedDate };
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
    // Nothing scheduled, unless a test's handlers say otherwise.
    'GET /api/v1/projects/web/schedules': () =>
      jsonResponse(200, {
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-01-15T00:00:00.000Z',
        occurrences: [],
        schedules: [],
      }),
    ...(typeof options.handlers === 'function' ? options.handlers(state) : options.handlers),
  });
  const rendered = renderRoute(
    environmentRoute([
      { path: 'features/:featureKey/:featureDetailPageTab?', element: <DetailRoute /> },
      { path: 'features', element: <h1>Feature list</h1> },
    ]),
    path,
    { session: payload },
  );
  return { ...rendered, calls, state, pathname: () => rendered.router.state.location.pathname };
}
