import type { JiraIssue } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { AppError } from '../../errors';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import type { Principal } from '../auth/auth.service';
import type { IssueLinkWriter } from '../features/ports';
import { JIRA_TURNED_OFF, type IntegrationsLogger } from './access';
import type { JobQueue } from '../queue/queue.service';
import type { JobOutcome } from '../queue/queue.types';
import type { Background } from './background';
import { organisationDashboard } from './change-messages';
import * as repo from './integrations.repository';
import type { JiraIntegrationRecord } from './integrations.types';
import {
  JiraError,
  browseUrl,
  commentDocument,
  type JiraAdapter,
  type JiraIssueSummary,
} from './jira-adapter';
import { configurationOf, connectionOf, credentialsOf } from './jira-credentials';

/** How long an issue's title is used before it is read again from Jira. */
export const ISSUE_CACHE_MS = 10 * 60 * 1000;
/** After a failed read, how long before Jira is asked again about the same issue. */
const ISSUE_RETRY_MS = 60 * 1000;
/** Most issues remembered per organisation. */
const ISSUE_CACHE_SIZE = 2_000;

export const JIRA_NOT_CONNECTED = 'Jira is not connected.';

export function noSuchIssueMessage(key: string): string {
  return `Jira has no issue ${key}, or the connected account cannot see it.`;
}

/** The kind of job that comments on a linked issue. */
export const JIRA_COMMENT_JOB = 'integrations.jira-comment';

/** A comment job's payload: the issue and the comment (Atlassian Document Format); no credential. */
type JiraCommentJob = { issueKey: string; body: ReturnType<typeof commentDocument> };

type CacheEntry = { issue: JiraIssueSummary | null; fetchedAt: number; failedAt: number };

/** A feature's link to an issue as the issue tracker announces it: who linked which feature, and where. */
export type IssuesLinked = {
  organisationId: string;
  actorEmail: string;
  how: 'created' | 'linked';
  feature: { key: string; name: string };
  project: { key: string; name: string };
  issueKeys: string[];
};

export type JiraIssues = ReturnType<typeof createJiraIssues>;

/**
 * The issues of the issue tracker (docs/adr/0017-integrations-and-outgoing-requests.md): keys resolved
 * to titles and links (remembered ten minutes, refreshed in the background, the bare key when Jira
 * cannot be reached), and a comment on each issue a feature is linked to.
 */
export function createJiraIssues(deps: {
  db: Database;
  issueLinks: IssueLinkWriter;
  secrets: SecretBox;
  adapter: JiraAdapter;
  background: Background;
  /** The durable queue the comments go through, and their waits between attempts. */
  queue: JobQueue;
  retryDelaysMs: readonly number[];
  /** The integrations and jira-integration flags. */
  enabled: boolean;
  /** The public address, without a trailing slash. */
  publicUrl: string;
  baseDomain: string;
  logger: IntegrationsLogger;
  now: () => Date;
}) {
  const { db, secrets, adapter, background, queue, logger, now, publicUrl } = deps;
  /** Issues by organisation, then by key. */
  const cache = new Map<string, Map<string, CacheEntry>>();
  const refreshing = new Set<string>();

  function remember(organisationId: string, key: string, entry: CacheEntry) {
    let issues = cache.get(organisationId);
    if (!issues) cache.set(organisationId, (issues = new Map()));
    issues.delete(key);
    issues.set(key, entry);
    if (issues.size > ISSUE_CACHE_SIZE) issues.delete(issues.keys().next().value!);
  }

  /** Reads an issue from Jira and remembers it (here and on the features' links); throws JiraError. */
  async function fetchIssue(connection: JiraIntegrationRecord, key: string): Promise<JiraIssueSummary> {
    const organisationId = connection.organisationId;
    try {
      const issue = await adapter.issue(credentialsOf(secrets, connection), key);
      remember(organisationId, key, { issue, fetchedAt: now().getTime(), failedAt: 0 });
      await deps.issueLinks.remember(db, organisationId, connection.id, { ...issue, key });
      return issue;
    } catch (error) {
      const previous = cache.get(organisationId)?.get(key);
      remember(organisationId, key, {
        issue: previous?.issue ?? null,
        fetchedAt: previous?.fetchedAt ?? 0,
        failedAt: now().getTime(),
      });
      if (error instanceof SecretBoxError)
        throw new JiraError('failed', 'the stored API token cannot be read');
      throw error;
    }
  }

  /** Reads the issue again after the answer, once at a time per issue. */
  function refresh(connection: JiraIntegrationRecord, key: string): void {
    const id = `${connection.organisationId}:${key}`;
    if (refreshing.has(id)) return;
    refreshing.add(id);
    background.run(async () => {
      try {
        await fetchIssue(connection, key);
      } catch (error) {
        if (!(error instanceof JiraError)) throw error;
      } finally {
        refreshing.delete(id);
      }
    });
  }

  function forget(organisationId: string) {
    cache.delete(organisationId);
  }

  return {
    /** Forgets what is known of the organisation's issues (its connection changed or went). */
    forget,

    /**
     * GET /api/v1/integrations/jira/issues/{key} (any member): the issue's title and page, read from
     * Jira unless remembered in the last ten minutes; when Jira cannot be reached, what was last known,
     * else the bare key (with its page's address).
     */
    async issue(principal: Principal, key: string): Promise<JiraIssue> {
      if (!deps.enabled) throw new AppError(404, 'Not found', JIRA_TURNED_OFF);
      const connection = await connectionOf(db, principal.organisationId);
      if (!connection) throw new AppError(404, 'Not found', JIRA_NOT_CONNECTED);
      const cached = cache.get(principal.organisationId)?.get(key);
      if (cached?.issue && now().getTime() - cached.fetchedAt < ISSUE_CACHE_MS) return cached.issue;
      try {
        return await fetchIssue(connection, key);
      } catch (error) {
        if (!(error instanceof JiraError)) throw error;
        if (error.kind === 'not-found') throw new AppError(404, noSuchIssueMessage(key));
        return cached?.issue ?? { key, title: '', url: browseUrl(configurationOf(connection).baseUrl, key) };
      }
    },

    /**
     * For the features' `jiraIssues` (feature read model): what is known of these issues without
     * waiting for Jira, the stale ones and the unknown ones read again after the answer; null when Jira
     * is not connected. A title of `''` means not known yet: the read model keeps what the link stored.
     */
    async describeIssues(
      executor: Executor,
      organisationId: string,
      keys: string[],
    ): Promise<Map<string, { title: string; url: string }> | null> {
      if (!deps.enabled || keys.length === 0) return null;
      const connection = await connectionOf(executor, organisationId);
      if (!connection) return null;
      const baseUrl = configurationOf(connection).baseUrl;
      const known = cache.get(organisationId);
      const described = new Map<string, { title: string; url: string }>();
      const at = now().getTime();
      for (const key of new Set(keys)) {
        const entry = known?.get(key);
        const fresh = entry?.issue && at - entry.fetchedAt < ISSUE_CACHE_MS;
        const resting = entry && at - entry.failedAt < ISSUE_RETRY_MS;
        if (!fresh && !resting) refresh(connection, key);
        described.set(key, {
          title: entry?.issue?.title ?? '',
          url: entry?.issue?.url ?? browseUrl(baseUrl, key),
        });
      }
      return described;
    },

    /**
     * When a feature is created from, or linked to, issues: a comment on each with a link back to the
     * feature, as a job of the durable queue written in the feature's transaction
     * (docs/adr/0023-durable-queue.md), so it is sent once the link commits and never without it;
     * retried there, a failure never fails the feature's write.
     */
    async issuesLinked(executor: Executor, linked: IssuesLinked): Promise<void> {
      if (!deps.enabled || linked.issueKeys.length === 0) return;
      if (!(await connectionOf(executor, linked.organisationId))) return;
      const domain = await repo.organisationDomain(executor, linked.organisationId);
      if (!domain) return;
      const dashboard = organisationDashboard(publicUrl, deps.baseDomain, domain);
      const featureUrl = `${dashboard}/projects/${encodeURIComponent(linked.project.key)}/features/${encodeURIComponent(linked.feature.key)}`;
      const body = commentDocument([
        {
          text: `${linked.actorEmail} ${linked.how === 'created' ? 'created the Vexil feature ' : 'linked this issue to the Vexil feature '}`,
        },
        { text: linked.feature.name, href: featureUrl },
        {
          text: ` (${linked.feature.key}) in the project ${linked.project.name}${linked.how === 'created' ? ' from this issue' : ''}.`,
        },
      ]);
      for (const issueKey of linked.issueKeys)
        await queue.enqueue(executor, {
          kind: JIRA_COMMENT_JOB,
          organisationId: linked.organisationId,
          payload: { issueKey, body } satisfies JiraCommentJob,
        });
    },

    /** Registers the job that comments on one issue (a request to Jira; retried on 5xx, 429, no answer). */
    registerJobs(): void {
      if (!deps.enabled) return;
      queue.handle<JiraCommentJob>(JIRA_COMMENT_JOB, {
        retryDelaysMs: deps.retryDelaysMs,
        lane: (job) => `jira:${job.organisationId ?? ''}`,
        run: async (job) => {
          const connection = job.organisationId ? await connectionOf(db, job.organisationId) : null;
          if (!connection) return { ok: false, retry: false, reason: JIRA_NOT_CONNECTED };
          const { issueKey, body } = job.payload;
          let outcome: JobOutcome;
          try {
            await adapter.comment(credentialsOf(secrets, connection), issueKey, body);
            outcome = { ok: true };
          } catch (error) {
            if (error instanceof SecretBoxError)
              return { ok: false, retry: false, reason: 'the stored API token cannot be read' };
            if (!(error instanceof JiraError)) throw error;
            outcome = {
              ok: false,
              retry: error.kind === 'unreachable',
              reason: error.detail,
              retryAfterMs: error.retryAfterMs,
            };
          }
          if (outcome.ok)
            await fetchIssue(connection, issueKey).catch(() => {}); // The title, for the feature page.
          else if (!outcome.retry || job.attempt > deps.retryDelaysMs.length)
            logger.warn(
              {
                organisationId: job.organisationId,
                integrationId: connection.id,
                issueKey,
                reason: outcome.reason,
              },
              'Could not comment on a Jira issue',
            );
          return outcome;
        },
      });
    },
  };
}
