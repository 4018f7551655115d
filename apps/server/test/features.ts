import type { Feature, FeatureControl, Rule } from '@vexil/core';
import type { Caller } from './api';

/** Creates a feature in a project through the API and returns it. */
export async function createFeature(
  call: Caller,
  projectKey: string,
  body: Record<string, unknown>,
): Promise<Feature> {
  const res = await call('POST', `/api/v1/projects/${projectKey}/features`, body);
  if (res.statusCode !== 201) throw new Error(`create feature: ${res.statusCode} ${res.body}`);
  return res.json<Feature>();
}

/** The body of PUT /api/v1/feature-controls/ for a control, with changes. */
export function controlBody(
  control: FeatureControl,
  changes: Partial<{ enabled: boolean; offVariantKey: string; rules: Rule[] }> = {},
) {
  return {
    id: control.id,
    enabled: control.enabled,
    offVariantKey: control.offVariantKey,
    rules: control.rules,
    ...changes,
  };
}

/** A targeted rule: one condition, one variant at 100 % (or the given splits). */
export function rule(
  target: string,
  operator: string,
  values: (string | number)[],
  splits: { variantKey: string; split: number }[] = [{ variantKey: 'on', split: 100 }],
): Rule {
  return {
    defaultRule: false,
    audience: { conditions: [{ target, operator, values }] },
    variantSplits: splits,
  } as Rule;
}

/** The ELSE rule. */
export function otherwise(variantKey = 'off'): Rule {
  return { defaultRule: true, audience: null, variantSplits: [{ variantKey, split: 100 }] };
}
