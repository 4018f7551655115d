// Over 400 lines: the Jira connection, its connect-token flow, issue lookups and issue comments are one service today; they split with the structure issue (#30).
import {
  escapeMarkdown,
  markdownCode,
  type JiraConnection,
  type JiraConnectionInput,
  type JiraConnectInput,
  type JiraConnectToken,
  type JiraIssue,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../../errors';
import { OutgoingUrlError, checkOutgoingUrl, type OutgoingPolicy } from '../../lib/outgoing-url';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { IssueLinkWriter } from '../features/ports';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { TeamService } from '../team/team.service';
import { JIRA_TURNED_OFF, assertIntegrationsAdmin, secretContext, type IntegrationsLogger } from './access';
import type { Background } from './background';
import { organisationDashboard } from './change-messages';
import * as repo from './integrations.repository';
import type { IntegrationRecord, JiraConfiguration, JiraIntegrationRecord } from './integrations.types';
import {
  JiraError,
  browseUrl,
  commentDocument,
  type JiraAdapter,
  type JiraCredentials,
  type JiraIssueSummary,
} from './jira-adapter';
import { refusedUrlMessage } from './webhooks.service';

/** How long a connect token works. */
export const JIRA_CONNECT_TOKEN_MS = 30 * 60 * 1000;
/** How long an issue's title is used before it is read again from Jira. */
export const ISSUE_CACHE_MS = 10 * 60 * 1000;
/** After a failed read, how long before Jira is asked again about the same issue. */
const ISSUE_RETRY_MS = 60 * 1000;
/** Most issues remembered per organisation. */
const ISSUE_CACHE_SIZE = 2_000;

export const JIRA_TOKEN_EXPIRED =
  'This link to connect Jira has expired or was already used. Start again from Admin › Integrations.';
export const JIRA_ALREADY_CONNECTED = 'Jira is already connected: edit or remove that connection.';
export const JIRA_NOT_CONNECTED = 'Jira is not connected.';
export const JIRA_UNREADABLE_TOKEN =
  'The stored API token can no longer be read (SECRETS_KEY has changed): enter it again.';
export const JIRA_REFUSED_CREDENTIALS = 'Jira refused this e-mail and API token.';

export function jiraUnreachableMessage(detail: string): string {
  // A detail may end in a question of its own ("is this the address of a Jira site?").
  return `Could not use Jira at this address: ${detail}${/[.?!]$/.test(detail) ? '' : '.'}`;
}

export function noSuchIssueMessage(key: string): string {
  return `Jira has no issue ${key}, or the connected account cannot see it.`;
}

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

export type JiraService = ReturnType<typeof createJiraService>;

/**
 * The issue tracker (docs/adr/0017-integrations-and-outgoing-requests.md): one Jira connection per
 * organisation (base URL, e-mail, encrypted API token), connected through a one-time token; issue keys
 * resolved to titles and links (remembered ten minutes, refreshed in the background, the bare key when
 * Jira cannot be reached); and a comment on each issue a feature is linked to.
 */
export function createJiraService(deps: {
  db: Database;
  audit: AuditService;
  team: TeamService;
  /** The organisation's `jiraEnabled` setting and the features' issue links are their owners' to write. */
  organisations: Pick<OrganisationsService, 'setJiraEnabled'>;
  issueLinks: IssueLinkWriter;
  secrets: SecretBox;
  adapter: JiraAdapter;
  background: Background;
  policy: OutgoingPolicy;
  /** The integrations and jira-integration flags. */
  enabled: boolean;
  publicUrl: string;
  /** BASE_DOMAIN: links back to a feature address its organisation (change-messages.ts). */
  baseDomain: string;
  logger: IntegrationsLogger;
  now?: () => Date;
}) {
  const { db, audit, team, secrets, adapter, background, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  const tokenContext = (organisationId: string) => secretContext('apiToken', organisationId);
  /** Issues by organisation, then by key. */
  const cache = new Map<string, Map<string, CacheEntry>>();
  const refreshing = new Set<string>();

  function assertAdmin(principal: Principal) {
    assertIntegrationsAdmin(principal, deps.enabled, JIRA_TURNED_OFF);
  }

  function remember(organisationId: string, key: string, entry: CacheEntry) {
    let issues = cache.get(organisationId);
    if (!issues) cache.set(organisationId, (issues = new Map()));
    issues.delete(key);
    issues.set(key, entry);
    if (issues.size > ISSUE_CACHE_SIZE) issues.delete(issues.keys().next().value!);
  }

  function configurationOf(row: IntegrationRecord): JiraConfiguration {
    return row.configuration as JiraConfiguration;
  }

  function credentialsOf(row: IntegrationRecord): JiraCredentials {
    const configuration = configurationOf(row);
    return {
      baseUrl: configuration.baseUrl,
      email: configuration.email ?? '',
      apiToken: row.secrets.apiToken
        ? secrets.decrypt(row.secrets.apiToken, tokenContext(row.organisationId))
        : '',
    };
  }

  async function connectionOf(
    executor: Executor,
    organisationId: string,
  ): Promise<JiraIntegrationRecord | null> {
    const [row] = await repo.listIntegrations(executor, organisationId, 'jira');
    return (row as JiraIntegrationRecord | undefined) ?? null;
  }

  async function toConnection(executor: Executor, row: IntegrationRecord): Promise<JiraConnection> {
    const members = row.memberId
      ? await team.summariesOf(executor, row.organisationId, [row.memberId])
      : new Map();
    const configuration = configurationOf(row);
    return {
      id: row.id,
      baseUrl: configuration.baseUrl,
      email: configuration.email ?? '',
      hasApiToken: Boolean(row.secrets.apiToken),
      member: { name: (row.memberId && members.get(row.memberId)?.name) || 'A former member' },
      createdDate: row.createdAt.toISOString(),
      lastModifiedDate: row.updatedAt.toISOString(),
    };
  }

  /** Checks the address (outgoing-URL guard) and the credentials (Jira's `myself`), or says which field is wrong. */
  async function verify(credentials: JiraCredentials): Promise<void> {
    try {
      await checkOutgoingUrl(credentials.baseUrl, deps.policy);
    } catch (error) {
      if (error instanceof OutgoingUrlError)
        throw new ValidationError('baseUrl', refusedUrlMessage(error.message));
      throw error;
    }
    try {
      await adapter.myself(credentials);
    } catch (error) {
      if (!(error instanceof JiraError)) throw error;
      if (error.kind === 'unauthorised') throw new ValidationError('apiToken', JIRA_REFUSED_CREDENTIALS);
      throw new ValidationError('baseUrl', jiraUnreachableMessage(error.detail));
    }
  }

  /** Reads an issue from Jira and remembers it (here and on the features' links); throws JiraError. */
  async function fetchIssue(connection: JiraIntegrationRecord, key: string): Promise<JiraIssueSummary> {
    const organisationId = connection.organisationId;
    try {
      const issue = await adapter.issue(credentialsOf(connection), key);
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
    /** GET /api/v1/integrations/jira/connect-token */
    async connectToken(principal: Principal): Promise<JiraConnectToken> {
      assertAdmin(principal);
      const token = newSecretToken('vxj_');
      const at = now();
      const expiresAt = new Date(at.getTime() + JIRA_CONNECT_TOKEN_MS);
      await repo.deleteExpiredStates(db, at);
      await repo.insertState(db, {
        organisationId: principal.organisationId,
        userId: principal.userId,
        kind: 'jira-connect',
        nonceHash: hashToken(token),
        returnTo: null,
        createdAt: at,
        expiresAt,
      });
      return { token, expiresDate: expiresAt.toISOString() };
    },

    /**
     * POST /api/v1/integrations/jira/connect: with a connect token this admin was given, checks the
     * address and credentials against Jira, then stores the connection (the API token encrypted).
     */
    async connect(principal: Principal, input: JiraConnectInput): Promise<JiraConnection> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      const nonceHash = hashToken(input.token);
      const valid = (state: Awaited<ReturnType<typeof repo.findState>>) =>
        state !== null &&
        state.organisationId === organisationId &&
        state.userId === principal.userId &&
        state.expiresAt.getTime() > now().getTime();
      if (!valid(await repo.findState(db, 'jira-connect', nonceHash)))
        throw new ValidationError('token', JIRA_TOKEN_EXPIRED);
      if (await connectionOf(db, organisationId)) throw new ConflictError(JIRA_ALREADY_CONNECTED);
      const baseUrl = input.baseUrl.replace(/\/+$/, '');
      await verify({ baseUrl, email: input.email, apiToken: input.apiToken });
      try {
        const row = await db.transaction(async (tx) => {
          await lockOrganisation(tx, organisationId);
          if (!valid(await repo.takeState(tx, 'jira-connect', nonceHash)))
            throw new ValidationError('token', JIRA_TOKEN_EXPIRED);
          const created = await repo.insertIntegration(tx, {
            organisationId,
            type: 'jira',
            memberId: principal.userId,
            configuration: { baseUrl, email: input.email },
            secrets: { apiToken: secrets.encrypt(input.apiToken, tokenContext(organisationId)) },
            externalId: null,
            createdAt: now(),
          });
          await deps.organisations.setJiraEnabled(tx, organisationId, true);
          await audit.record(tx, principal, {
            action: 'create',
            resourceType: 'integration',
            resourceId: created.id,
            title: 'Jira connected',
            description: `${escapeMarkdown(principal.email)} connected Jira at ${markdownCode(baseUrl)} as ${markdownCode(input.email)}.`,
          });
          return toConnection(tx, created);
        });
        forget(organisationId);
        return row;
      } catch (error) {
        if (isUniqueViolation(error, 'integrations_one_jira_unique'))
          throw new ConflictError(JIRA_ALREADY_CONNECTED);
        throw error;
      }
    },

    /** GET /api/v1/integrations/jira/{id} */
    async get(principal: Principal, id: string): Promise<JiraConnection> {
      assertAdmin(principal);
      const row = await repo.findIntegration(db, principal.organisationId, id);
      if (!row || row.type !== 'jira') throw new NotFoundError('Jira connection', id);
      return toConnection(db, row);
    },

    /** PUT /api/v1/integrations/jira/{id}: the API token is kept when omitted. */
    async update(principal: Principal, id: string, input: JiraConnectionInput): Promise<JiraConnection> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      const stored = await repo.findIntegration(db, organisationId, id);
      if (!stored || stored.type !== 'jira') throw new NotFoundError('Jira connection', id);
      let apiToken = input.apiToken;
      if (apiToken === undefined) {
        try {
          apiToken = credentialsOf(stored).apiToken;
        } catch (error) {
          if (!(error instanceof SecretBoxError)) throw error;
          throw new ValidationError('apiToken', JIRA_UNREADABLE_TOKEN);
        }
      }
      const baseUrl = input.baseUrl.replace(/\/+$/, '');
      await verify({ baseUrl, email: input.email, apiToken });
      const connection = await db.transaction(async (tx) => {
        const before = await repo.findIntegration(tx, organisationId, id, { forUpdate: true });
        if (!before || before.type !== 'jira') throw new NotFoundError('Jira connection', id);
        const previous = configurationOf(before);
        const after = await repo.updateIntegration(tx, organisationId, id, {
          configuration: { baseUrl, email: input.email },
          secrets: {
            ...before.secrets,
            apiToken:
              input.apiToken === undefined
                ? before.secrets.apiToken
                : secrets.encrypt(input.apiToken, tokenContext(organisationId)),
          },
          updatedAt: now(),
        });
        if (previous.baseUrl !== baseUrl) await deps.issueLinks.forget(tx, organisationId);
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'integration',
          resourceId: id,
          title: 'Jira connection changed',
          description: `${escapeMarkdown(principal.email)} changed the Jira connection: ${markdownCode(baseUrl)} as ${markdownCode(input.email)}.${input.apiToken === undefined ? '' : ' The API token was replaced.'}`,
        });
        return toConnection(tx, after);
      });
      forget(organisationId);
      return connection;
    },

    /** The connection is removed (integrations service): titles and links of its issues are forgotten. */
    async removed(executor: Executor, organisationId: string): Promise<void> {
      await deps.organisations.setJiraEnabled(executor, organisationId, false);
      await deps.issueLinks.forget(executor, organisationId);
      forget(organisationId);
    },

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
     * After a feature is created from, or linked to, issues: a comment on each with a link back to the
     * feature, in the background (retried; a failure never fails the feature's write).
     */
    issuesLinked(linked: IssuesLinked): void {
      if (!deps.enabled || linked.issueKeys.length === 0) return;
      background.run(async (signal) => {
        const connection = await connectionOf(db, linked.organisationId);
        if (!connection) return;
        const domain = await repo.organisationDomain(db, linked.organisationId);
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
        for (const key of linked.issueKeys) {
          const outcome = await background.withRetries(async () => {
            try {
              await adapter.comment(credentialsOf(connection), key, body);
              return { ok: true };
            } catch (error) {
              if (error instanceof SecretBoxError)
                return { ok: false, retry: false, reason: 'the stored API token cannot be read' };
              if (!(error instanceof JiraError)) throw error;
              return {
                ok: false,
                retry: error.kind === 'unreachable',
                reason: error.detail,
                retryAfterMs: error.retryAfterMs,
              };
            }
          }, signal);
          if (!outcome.ok)
            logger.warn(
              {
                organisationId: linked.organisationId,
                integrationId: connection.id,
                issueKey: key,
                reason: outcome.reason,
              },
              'Could not comment on a Jira issue',
            );
          // The title, for the feature page.
          await fetchIssue(connection, key).catch(() => {});
        }
      });
    },
  };
}
