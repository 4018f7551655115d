import type { LiveChange } from '@vexil/core';
import type { Database } from '../../db/client';
import type { ChangeOutbox } from '../../lib/change-outbox';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import type { Enqueue, JobQueue } from '../queue/queue.service';
import { secretContext, type IntegrationsLogger } from './access';
import {
  eventKindOf,
  integrationEvent,
  passes,
  slackMessage,
  type DashboardAddress,
} from './change-messages';
import { filtersOf } from './integrations.service';
import * as repo from './integrations.repository';
import type { SlackIntegrationRecord } from './integrations.types';
import type { SlackAdapter, SlackMessage } from './slack-adapter';
import type { WebhooksService } from './webhooks.service';

/*
 * How the integrations pass a change on through the durable queue (docs/adr/0023-durable-queue.md):
 * the service that makes the change adds one `integrations.change` job in its transaction; that job
 * (in one transaction with its own completion, so exactly once) queues the outgoing webhooks'
 * deliveries and one `integrations.slack-post` job per channel the change passes the filters of,
 * whose retries then live in the queue.
 */

/** Chat posts and issue comments are retried after 1 s, 5 s, 30 s, 2 min and 10 min (Retry-After honoured up to 10 min). */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000, 600_000];

/** The job that fans a change out to the webhooks and the chat channels. */
export const CHANGE_JOB = 'integrations.change';
/** The job that posts one change to one Slack channel. */
export const SLACK_POST_JOB = 'integrations.slack-post';

/** A change job's payload: the change as the dashboards see it. */
type ChangeJob = { change: LiveChange };
/** A post job's payload: the integration and the message; the webhook URL is read when it runs. */
type SlackPostJob = { integrationId: string; message: SlackMessage };

/** The reason stored when a post's integration went before the post. */
export const SLACK_INTEGRATION_REMOVED = 'The Slack integration was removed.';

/**
 * The integrations' change outbox, for the composition root to give the services that make changes:
 * one change job for a change integrations are told of (none when the integrations are turned off).
 */
export function integrationsOutbox(enqueue: Enqueue, enabled: boolean): ChangeOutbox {
  return async (executor, organisationId, change) => {
    if (!enabled || !eventKindOf(change)) return;
    await enqueue(executor, { kind: CHANGE_JOB, organisationId, payload: { change } satisfies ChangeJob });
  };
}

/** Registers the change and Slack post jobs with the queue (only when the integrations are turned on). */
export function registerChangeJobs(deps: {
  db: Database;
  queue: JobQueue;
  secrets: SecretBox;
  slack: SlackAdapter;
  webhooks: Pick<WebhooksService, 'enqueue' | 'wake'>;
  address: DashboardAddress;
  /** The waits between attempts of a post (and of a change's fan-out). */
  retryDelaysMs: readonly number[];
  logger: IntegrationsLogger;
}): void {
  const { db, queue, secrets, slack, webhooks, logger } = deps;

  queue.handle<ChangeJob>(CHANGE_JOB, {
    transactional: true,
    retryDelaysMs: deps.retryDelaysMs,
    // An organisation's changes are passed on in their order.
    lane: (job) => `change:${job.organisationId ?? ''}`,
    async run(tx, job, { afterCommit }) {
      const organisationId = job.organisationId;
      const { change } = job.payload;
      const kind = eventKindOf(change);
      if (!organisationId || !kind) return;
      const subject = await repo.describeChange(tx, organisationId, change);
      if (!subject) return;
      const event = integrationEvent(organisationId, kind, change, subject, deps.address);
      if ((await webhooks.enqueue(tx, event)) > 0) afterCommit(webhooks.wake);
      const rows = (await repo.listIntegrations(tx, organisationId, 'slack')) as SlackIntegrationRecord[];
      const chosen = rows.filter((row) => passes(filtersOf(row.configuration), event));
      if (chosen.length === 0) return;
      const message = slackMessage(event);
      for (const row of chosen)
        await queue.enqueue(tx, {
          kind: SLACK_POST_JOB,
          organisationId,
          payload: { integrationId: row.id, message } satisfies SlackPostJob,
          dedupeKey: `${SLACK_POST_JOB}:${job.id}:${row.id}`,
        });
    },
  });

  queue.handle<SlackPostJob>(SLACK_POST_JOB, {
    retryDelaysMs: deps.retryDelaysMs,
    // A channel's posts go one at a time, in the order they came due.
    lane: (job) => `slack:${(job.payload as SlackPostJob).integrationId}`,
    async run(job) {
      const { integrationId, message } = job.payload;
      const row = job.organisationId
        ? await repo.findIntegration(db, job.organisationId, integrationId)
        : null;
      if (!row || row.type !== 'slack') return { ok: false, retry: false, reason: SLACK_INTEGRATION_REMOVED };
      let webhookUrl: string;
      try {
        webhookUrl = secrets.decrypt(
          row.secrets.webhookUrl ?? '',
          secretContext('webhookUrl', row.organisationId),
        );
      } catch (error) {
        if (!(error instanceof SecretBoxError)) throw error;
        return {
          ok: false,
          retry: false,
          reason: 'The stored webhook URL can no longer be read (SECRETS_KEY has changed).',
        };
      }
      const outcome = await slack.post(webhookUrl, message);
      if (!outcome.ok && (!outcome.retry || job.attempt > deps.retryDelaysMs.length))
        logger.warn({ integrationId, jobId: job.id, reason: outcome.reason }, 'Could not post to Slack');
      return outcome;
    },
  });
}
