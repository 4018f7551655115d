import { screen, within } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel } from '@testing-library/user-event';
import { jsonResponse, type stubApi } from '../../../../test-utils';
import {
  describeRules,
  targetingStatusOf,
  type FeatureControl,
  type Segment,
  type Target,
} from '@vexil/core';
import {
  DETAIL,
  renderFeatureDetail,
  type RenderOptions,
  type ServerState,
} from '../feature-detail/feature-detail-test-utils';

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
  };
}

export const SEGMENTS: Segment[] = [segment('beta-testers', 'Beta testers'), segment('staff', 'Staff')];

export type TargetingServer = ServerState & { targets: Target[] };

type Handlers = Parameters<typeof stubApi>[0];

/** The control the PUT saves, as the server answers: the body with its derived fields. */
function savedControl(
  before: FeatureControl,
  body: Pick<FeatureControl, 'enabled' | 'offVariantKey' | 'rules'>,
) {
  return {
    ...before,
    enabled: body.enabled,
    offVariantKey: body.offVariantKey,
    rules: body.rules,
    targetingStatus: targetingStatusOf(body),
    rulesDescription: describeRules(body, { on: 'On', off: 'Off' }),
  };
}

/**
 * The feature detail page at a Targeting tab, with the project's targets, the environment's segments,
 * value suggestions for `email`, and a PUT that stores the control. Resolves once the editor (or the
 * read-only view) is on screen.
 */
export async function renderTargeting(
  path = DEV_TARGETING,
  options: Omit<RenderOptions, 'handlers'> & { handlers?: (server: TargetingServer) => Handlers } = {},
) {
  const targets = [...TARGETS];
  const rendered = renderFeatureDetail(path, {
    ...options,
    handlers: (state) => {
      const server = Object.assign(state, { targets }) as TargetingServer;
      return {
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
          const after = savedControl(before, input);
          server.feature = {
            ...server.feature,
            controls: { ...server.feature.controls, [environmentKey]: after },
          };
          return jsonResponse(200, after);
        },
        ...options.handlers?.(server),
      };
    },
  });
  await screen.findByRole('heading', { name: /^Targeting for / });
  return { ...rendered, user: userEvent.setup({ pointerEventsCheck: PointerEventsCheckLevel.Never }) };
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
    ?.body as { id: string; enabled: boolean; offVariantKey: string; rules: unknown[] } | undefined;
}
