import type { Executor } from '../../db/client';
import * as links from './feature-links.repository';

/**
 * The features module's ports (docs/adr/0019-modules-own-their-tables.md): what features ask of
 * modules that are not below them, declared here and supplied by the composition root. The issue
 * tracker (integrations) describes and comments on issues, and writes what it learns of an issue onto
 * the features' issue links through {@link issueLinkWriter}, the features module being the links' one
 * writer; the goals (experiments) give a project's goal ids by key.
 */

/** The issues a feature was created from or linked to, told in its transaction. */
export type IssuesLinked = {
  organisationId: string;
  actorEmail: string;
  how: 'created' | 'linked';
  feature: { key: string; name: string };
  project: { key: string; name: string };
  issueKeys: string[];
};

/** What the issue tracker is told when a member creates a feature from issues or links one. */
export function issuesLinked(
  principal: { organisationId: string; email: string },
  feature: { key: string; name: string; project: { key: string; name: string } },
  how: IssuesLinked['how'],
  issueKeys: string[],
): IssuesLinked {
  return {
    organisationId: principal.organisationId,
    actorEmail: principal.email,
    how,
    feature: { key: feature.key, name: feature.name },
    project: { key: feature.project.key, name: feature.project.name },
    issueKeys,
  };
}

/** What features ask of the issue tracker; either may be missing (integrations off). */
export type IssueTracker = {
  /** Titles and links of the issue keys; null when no tracker is connected. */
  describeIssues(
    executor: Executor,
    organisationId: string,
    keys: string[],
  ): Promise<Map<string, { title: string; url: string }> | null>;
  /** Comments on the issues: jobs written in the caller's transaction. */
  issuesLinked(executor: Executor, linked: IssuesLinked): Promise<void>;
};

/** The ids of a project's goals by key, made when new (the experiments module's goals.ts). */
export type GoalIds = {
  ensureGoals(
    executor: Executor,
    organisationId: string,
    projectId: string,
    keys: string[],
  ): Promise<string[]>;
};

/** How the issue tracker records on the features' issue links what it learnt of an issue. */
export type IssueLinkWriter = typeof issueLinkWriter;

export const issueLinkWriter = {
  /** Remembers an issue's title and link on every link of the organisation to it. */
  remember: links.rememberIssue,
  /** Forgets the titles and links of the organisation's issue links (its connection went or moved). */
  forget: links.forgetIssues,
};
