import type { JiraIssue, JsonValue, ProjectRef, Variant } from '@vexil/core';

/**
 * A feature's settings as the module keeps them: core's `Feature` is this with its variants, issue
 * links, goals, maintainer, the reader's bookmark and its controls.
 */
export type FeatureRecord = {
  id: string;
  projectId: string;
  key: string;
  name: string;
  description: string;
  permanent: boolean;
  tags: string[];
  /** `null` when nobody maintains it (the member was removed). */
  maintainerId: string | null;
  archived: boolean;
  createdAt: Date;
  /** The version `lastModifiedDate` reports and settings updates are checked against. */
  updatedAt: Date;
};

/** A feature with the live project it belongs to. */
export type FeatureWithProject = { feature: FeatureRecord; project: ProjectRef };

/** A feature of a list, with when its settings or any of its controls last changed. */
export type ListedFeature = FeatureWithProject & { lastChanged: Date };

/** A variant of a feature, as SDKs and the API show it; `value` is `null` when it has none. */
export type VariantRecord = Omit<Variant, 'value'> & { featureId: string; value: JsonValue | null };

/** An issue-tracker ticket linked to a feature; `url` is `null` when none is known (the API shows `''`). */
export type IssueLinkRecord = Omit<JiraIssue, 'url'> & { featureId: string; url: string | null };

/** A goal of a feature, by key. */
export type FeatureGoal = { featureId: string; key: string };

/**
 * The answer of GET /api/v1/projects/{projectKey}/feature-key: the key asked about (normalised), whether
 * a live feature of the project has it, and the first free key made from it (the key itself when free).
 */
export type FeatureKeyCheck = { key: string; taken: boolean; freeKey: string };
