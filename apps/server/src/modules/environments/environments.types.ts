import type { EnvironmentRef, ProjectRef } from '@vexil/core';

/**
 * A live environment as the module keeps it: core's `Environment` is built from it for each reader
 * (the server SDK key masked for those who may not change it), and audit entries and version checks
 * read it as it is.
 */
export type EnvironmentRecord = Omit<EnvironmentRef, 'project'> & {
  projectId: string;
  /** `null` when no url is set (the API shows `''`). */
  url: string | null;
  color: string;
  local: boolean;
  serverApiKey: string;
  jsApiKey: string;
  /** The version `lastModifiedDate` reports and updates are checked against. */
  updatedAt: Date;
};

/** An environment with the live project it belongs to. */
export type EnvironmentWithProject = { environment: EnvironmentRecord; project: ProjectRef };
