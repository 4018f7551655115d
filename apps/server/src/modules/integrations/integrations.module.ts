import type { UiFlag } from '@vexil/core';
import type { Database } from '../../db/client';
import type { OutgoingFetch, OutgoingPolicy } from '../../lib/outgoing-url';
import type { SecretBox } from '../../lib/secret-box';
import type { AuditService } from '../audit/audit.service';
import type { IssueLinkWriter } from '../features/ports';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { Scope } from '../scope/scope.service';
import type { TeamService } from '../team/team.service';
import type { Queue } from '../queue/queue.service';
import type { IntegrationsLogger } from './access';
import { createBackground } from './background';
import { DEFAULT_RETRY_DELAYS_MS, registerChangeJobs } from './change-jobs';
import { createIntegrationsService } from './integrations.service';
import { createJiraAdapter } from './jira-adapter';
import { createJiraService } from './jira.service';
import { createSlackAdapter, type SlackApp } from './slack-adapter';
import { createWebhooksService } from './webhooks.service';

/** Tests shorten the waits; production keeps the defaults. */
export type IntegrationsOptions = {
  /** Waits between retries of a chat post or an issue comment's job (default 1 s, 5 s, 30 s, 2 min, 10 min). */
  retryDelaysMs?: number[];
  /** How often the webhook worker looks for due deliveries (default 5 s; 0: only when woken). */
  webhookPollMs?: number;
};

export type IntegrationsModule = ReturnType<typeof createIntegrationsModule>;

/**
 * The integrations module (docs/adr/0017-integrations-and-outgoing-requests.md): the chat service, the
 * issue tracker and outgoing webhooks, with their adapters, and the jobs of the durable queue that pass
 * changes on to them (change-jobs.ts, docs/adr/0023-durable-queue.md).
 * It sits above `audit`, `scope`, `team`, `organisations` and `queue`, and writes the features' issue links
 * through the writer the features module gives it; `features` asks its issue tracker through a port.
 */
export function createIntegrationsModule(deps: {
  db: Database;
  audit: AuditService;
  scope: Scope;
  team: TeamService;
  /** The owners of what the issue tracker writes beyond its own tables (docs/adr/0019-modules-own-their-tables.md). */
  organisations: Pick<OrganisationsService, 'setJiraEnabled'>;
  issueLinks: IssueLinkWriter;
  queue: Queue;
  secrets: SecretBox;
  fetch: OutgoingFetch;
  policy: OutgoingPolicy;
  uiFlags: Record<UiFlag, boolean>;
  slack: { app: SlackApp | null; apiUrl: string; oauthUrl: string };
  publicUrl: string;
  baseDomain: string;
  logger: IntegrationsLogger;
  options?: IntegrationsOptions | undefined;
  now?: () => Date;
}) {
  const { db, audit, scope, team, queue, secrets, fetch, policy, logger } = deps;
  const clock = deps.now ? { now: deps.now } : {};
  const enabled = deps.uiFlags.integrations;
  const jiraEnabled = enabled && deps.uiFlags['jira-integration'];
  const retryDelaysMs = deps.options?.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const background = createBackground({
    onError: (error) => logger.warn({ err: error }, 'An integration task failed'),
  });
  const webhooks = createWebhooksService({
    db,
    audit,
    scope,
    secrets,
    fetch,
    policy,
    enabled,
    logger,
    ...(deps.options?.webhookPollMs === undefined ? {} : { pollMs: deps.options.webhookPollMs }),
    ...clock,
  });
  const jira = createJiraService({
    db,
    audit,
    team,
    organisations: deps.organisations,
    issueLinks: deps.issueLinks,
    secrets,
    adapter: createJiraAdapter({ fetch }),
    background,
    queue,
    retryDelaysMs,
    policy,
    enabled: jiraEnabled,
    publicUrl: deps.publicUrl,
    baseDomain: deps.baseDomain,
    logger,
    ...clock,
  });
  const slack = createSlackAdapter({ fetch, ...deps.slack });
  const integrations = createIntegrationsService({
    db,
    audit,
    team,
    secrets,
    slack,
    jira,
    enabled,
    jiraEnabled,
    publicUrl: deps.publicUrl,
    baseDomain: deps.baseDomain,
    logger,
    ...clock,
  });
  if (enabled) {
    const address = { publicUrl: deps.publicUrl.replace(/\/+$/, ''), baseDomain: deps.baseDomain };
    registerChangeJobs({ db, queue, secrets, slack, webhooks, address, retryDelaysMs, logger });
  }
  jira.registerJobs();
  return {
    integrations,
    jira,
    webhooks,
    /** Starts the webhook worker (the queue's worker is started with the application). */
    start() {
      webhooks.start();
    },
    async stop() {
      await webhooks.stop();
      await background.stop();
    },
    /** Resolves once the work under way (jobs due soon, deliveries, title refreshes) is done. */
    async settled() {
      do {
        await background.settled();
        await queue.settled();
        await webhooks.settled();
      } while (background.busy() || queue.busy() || webhooks.busy());
    },
    /** Encrypts every stored integration secret with the current SECRETS_KEY; how many values were. */
    async reencryptSecrets(): Promise<number> {
      return (await integrations.reencryptSecrets()) + (await webhooks.reencryptSecrets());
    },
  };
}
