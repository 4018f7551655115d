import { screen, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { useParams } from 'react-router';
import { useFeature } from '../entities/features/api/get-feature';
import { DETAIL, featureFixture } from './test-fixtures';
import {
  environmentRoute,
  InEnvironment,
  initialPayload,
  jsonResponse,
  renderRoute,
  stubApi,
} from './test-utils';
import {
  describeRules,
  targetingStatusOf,
  type Feature,
  type FeatureControl,
  type InitialPayload,
  type Segment,
  type Target,
} from '@vexil/core';
import { FeatureTargeting } from '../features/targeting/components/feature-targeting';

export const DEV_TARGETING = '/projects/web/environments/dev/features/checkout/targeting';
export const PRODUCTION_TARGETING = `${DETAIL}/targeting`;

export const TARGETS: Target[] = [
  { key: 'email', name: 'Email', type: 'string' },
  { key: 'age', name: 'Age', type: 'number' },
  { key: 'signedUp', name: 'Signed up', type: 'date' },
  { key: 'segments', name: 'Segments', type: 'segment' },
];

function segment(key: string, name: string): Segment {
  const n = String(name.length).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${n}`,
    key,
    name,
    description: '',
    projectKey: 'web',
    environmentKey: 'dev',
    lastModifiedDate: '2026-01-01T00:00:00.000Z',
  };
}

export const SEGMENTS: Segment[] = [segment('beta-testers', 'Beta testers'), segment('staff', 'Staff')];

export type TargetingServer = { feature: Feature; targets: Target[] };

type Handlers = Parameters<typeof stubApi>[0];

/** The Targeting tab as the feature page shows it: for the loaded feature and the address's environment. */
function TargetingTab() {
  const { featureKey = '' } = useParams();
  return (
    <InEnvironment>
      {({ project, environment }) => (
        <LoadedTargeting projectKey={project.key} featureKey={featureKey}>
          {(feature) => (
            <section aria-label="Targeting">
              <FeatureTargeting
                feature={feature}
                control={feature.controls[environment.key]}
                environmentName={environment.name}
              />
            </section>
          )}
        </LoadedTargeting>
      )}
    </InEnvironment>
  );
}

function LoadedTargeting({
  projectKey,
  featureKey,
  children,
}: {
  projectKey: string;
  featureKey: string;
  children: (feature: Feature) => React.ReactNode;
}) {
  const feature = useFeature(projectKey, featureKey);
  return feature.data ? children(feature.data) : null;
}

let saves = 0;

/** The control as stored after a save of `body`: its derived fields and a new version. */
export function savedControl(
  before: FeatureControl,
  body: Pick<FeatureControl, 'enabled' | 'offVariantKey' | 'rules'>,
): FeatureControl {
  saves += 1;
  return {
    ...before,
    enabled: body.enabled,
    offVariantKey: body.offVariantKey,
    rules: body.rules,
    targetingStatus: targetingStatusOf(body),
    rulesDescription: describeRules(body, { on: 'On', off: 'Off' }),
    lastModifiedDate: new Date(Date.UTC(2026, 1, 1, 0, 0, saves)).toISOString(),
  };
}

/** Who saved the stored targeting last, as the server's refusal of a stale save says. */
export const STALE_BY = 'Ada Lovelace';
/** The title the server refuses a stale save with. */
export const STALE_TITLE =
  'Ada Lovelace changed this targeting at 00:00 UTC. Nothing of this save was stored.';

export type RenderTargetingOptions = {
  payload?: InitialPayload;
  feature?: Feature;
  /** Extra or replacing handlers, which may read and change what the server holds. */
  handlers?: (server: TargetingServer) => Handlers;
};

/**
 * The feature page's Targeting tab at `path`, with the feature, the project's targets, the
 * environment's segments, value suggestions for `email`, and a PUT that stores the control unless it
 * is based on an older version than the stored one (409 `stale_write`, as the server answers). Resolves
 * once the editor (or the read-only view) is on screen.
 */
export async function renderTargeting(path = DEV_TARGETING, options: RenderTargetingOptions = {}) {
  const server: TargetingServer = { feature: options.feature ?? featureFixture(), targets: [...TARGETS] };
  const calls = stubApi({
    'GET /api/v1/projects/web/features/checkout': () => jsonResponse(200, server.feature),
    'GET /api/v1/projects/web/targets': () => jsonResponse(200, server.targets),
    'POST /api/v1/projects/web/targets': ({ body }) => {
      server.targets.push(body as Target);
      return jsonResponse(201, body);
    },
    'GET /api/v1/projects/web/targets/email/values': () =>
      jsonResponse(200, ['ada@example.com', 'bob@example.com']),
    'GET /api/v2/segments/web/dev': () => jsonResponse(200, SEGMENTS),
    'GET /api/v2/segments/web/production': () => jsonResponse(200, []),
    'PUT /api/v1/feature-controls/': ({ body }) => {
      const input = body as FeatureControl;
      const [environmentKey, before] = Object.entries(server.feature.controls).find(
        ([, control]) => control.id === input.id,
      )!;
      if (input.lastModifiedDate !== undefined && input.lastModifiedDate !== before.lastModifiedDate) {
        return jsonResponse(409, {
          title: STALE_TITLE,
          code: 'stale_write',
          changedBy: STALE_BY,
          changedAt: before.lastModifiedDate,
        });
      }
      const after = savedControl(before, input);
      server.feature = {
        ...server.feature,
        controls: { ...server.feature.controls, [environmentKey]: after },
      };
      return jsonResponse(200, after);
    },
    // Nothing scheduled, unless a test's handlers say otherwise.
    'GET /api/v1/projects/web/schedules': () =>
      jsonResponse(200, {
        from: '2026-01-01T00:00:00.000Z',
        to: '2026-01-15T00:00:00.000Z',
        occurrences: [],
        schedules: [],
      }),
    ...options.handlers?.(server),
  });
  const rendered = renderRoute(
    environmentRoute([{ path: 'features/:featureKey/targeting', element: <TargetingTab /> }]),
    path,
    { session: options.payload ?? initialPayload() },
  );
  await screen.findByRole('heading', { name: /^Targeting for / });
  return {
    ...rendered,
    calls,
    server,
    user: userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never }),
  };
}

export type User = ReturnType<typeof userEvent.setup>;

/** Waits for the editor and returns its Add rule button. */
export const addRuleButton = () => screen.findByRole('button', { name: 'Add rule' });

export const ruleCard = (name: string) => screen.getByRole('group', { name });
export const conditionRow = (rule: HTMLElement, n: number) =>
  within(rule).getByRole('group', { name: `Condition ${n}` });

/** The value input of a condition row, whatever its kind. */
export const valueInput = (row: HTMLElement) =>
  within(row).getByLabelText(/^(Value|Values|Pattern|Date|Segments)$/, { selector: 'input' });

/** Opens a select (or the target picker) and clicks the option. */
export async function choose(user: User, field: HTMLElement, option: string | RegExp): Promise<void> {
  await user.click(field);
  await user.click(await screen.findByRole('option', { name: option }));
}

/** Fills condition `n` of `rule`: target, operator and, unless omitted, a value typed in. */
export async function fillCondition(
  user: User,
  rule: HTMLElement,
  n: number,
  condition: { target: RegExp; operator: string; value?: string },
): Promise<void> {
  const row = conditionRow(rule, n);
  await choose(user, within(row).getByRole('combobox', { name: 'Target' }), condition.target);
  await choose(user, within(row).getByRole('combobox', { name: 'Operator' }), condition.operator);
  if (condition.value !== undefined) {
    await user.click(valueInput(row));
    await user.paste(condition.value);
  }
}

/** The body of the last PUT of the control. */
export function lastPut(calls: { method: string; path: string; body: unknown }[]) {
  return calls.filter((call) => call.method === 'PUT' && call.path === '/api/v1/feature-controls/').at(-1)
    ?.body as
    | { id: string; enabled: boolean; offVariantKey: string; rules: unknown[]; lastModifiedDate?: string }
    | undefined;
}
