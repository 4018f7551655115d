import type { EnvironmentRef, ProjectRef, Rule, RuleContext } from '@vexil/core';
import type { Executor } from '../../db/client';

/**
 * A feature control as the module keeps it: the switch, the off variant and the rules, what SDKs
 * reported, and the dates core's `FeatureControl` derives its statuses from.
 */
export type ControlRecord = {
  id: string;
  featureId: string;
  environmentId: string;
  enabled: boolean;
  offVariantKey: string;
  rules: Rule[];
  /** Registered by an SDK in this environment (docs/product.md §4 Availability). */
  available: boolean;
  lastImpressionAt: Date | null;
  createdAt: Date;
  /** The version `lastModifiedDate` reports and updates are checked against. */
  updatedAt: Date;
};

/** A control of a live feature in a live environment of a live project, with all three. */
export type ControlInScope = {
  control: ControlRecord;
  feature: { id: string; key: string; name: string };
  environment: Pick<EnvironmentRef, 'id' | 'key' | 'name' | 'production' | 'tags'>;
  project: ProjectRef;
};

/**
 * What rules are checked against: the project's target types and the environment's segments. The
 * composition root builds it from the targets and segments modules, which sit beside this one.
 */
export type RuleContextSource = (
  executor: Executor,
  organisationId: string,
  scope: { projectId: string; environmentId: string },
) => Promise<RuleContext>;
