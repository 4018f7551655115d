import type { EnvironmentRef, ProjectRef, Rule } from '@vexil/core';

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
