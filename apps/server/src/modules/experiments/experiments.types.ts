import type { ExperimentMode } from '@vexil/core';

/** An experiment row with its feature's key and name. */
export type ExperimentRecord = {
  id: string;
  environmentId: string;
  featureId: string;
  featureKey: string;
  featureName: string;
  name: string;
  description: string;
  enabled: boolean;
  mode: ExperimentMode;
  goalKey: string;
  control: string;
  variation: string;
  startDate: Date | null;
  endDate: Date | null;
  archived: boolean;
  updatedAt: Date;
};

/** The columns an experiment's create or update writes. */
export type ExperimentWrite = {
  featureId: string;
  name: string;
  description: string;
  enabled: boolean;
  mode: ExperimentMode;
  goalKey: string;
  controlVariantKey: string;
  variationVariantKey: string;
  startDate: Date | null;
  endDate: Date | null;
};

/** A live feature an experiment may measure, with its variant keys. */
export type FeatureForExperiment = {
  id: string;
  key: string;
  name: string;
  projectId: string;
  variantKeys: string[];
};
