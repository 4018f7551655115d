import {
  type JiraConnection,
  type JiraConnectionInput,
  type JiraConnectInput,
  type JiraConnectToken,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { OutgoingUrlError, checkOutgoingUrl, type OutgoingPolicy } from '../../lib/outgoing-url';
import { SecretBoxError, type SecretBox } from '../../lib/secret-box';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { IssueLinkWriter } from '../features/ports';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { TeamService } from '../team/team.service';
import { JIRA_TURNED_OFF, assertIntegrationsAdmin, type IntegrationsLogger } from './access';
import type { JobQueue } from '../queue/queue.service';
import type { Background } from './background';
import { integrationAudit } from './integration-audit';
import * as repo from './integrations.repository';
import type { IntegrationRecord } from './integrations.types';
import { JiraError, type JiraAdapter, type JiraCredentials } from './jira-adapter';
import { configurationOf, connectionOf, credentialsOf, tokenContext } from './jira-credentials';
import { createJiraIssues } from './jira-issues';
import { refusedUrlMessage } from './webhooks.service';

export { ISSUE_CACHE_MS, JIRA_NOT_CONNECTED, noSuchIssueMessage, type IssuesLinked } from './jira-issues';

/** How long a connect token works. */
export const JIRA_CONNECT_TOKEN_MS = 30 * 60 * 1000;
export const JIRA_TOKEN_EXPIRED =
  'This link to connect Jira has expired or was already used. Start again from Admin › Integrations.';
export const JIRA_ALREADY_CONNECTED = 'Jira is already connected: edit or remove that connection.';
export const JIRA_UNREADABLE_TOKEN =
  'The stored API token can no longer be read (SECRETS_KEY has changed): enter it again.';
export const JIRA_REFUSED_CREDENTIALS = 'Jira refused this e-mail and API token.';

export function jiraUnreachableMessage(detail: string): string {
  // A detail may end in a question of its own ("is this the address of a Jira site?").
  return `Could not use Jira at this address: ${detail}${/[.?!]$/.test(detail) ? '' : '.'}`;
}

export type JiraService = ReturnType<typeof createJiraService>;

/**
 * The issue tracker (docs/adr/0017-integrations-and-outgoing-requests.md): one Jira connection per
 * organisation (base URL, e-mail, encrypted API token), connected through a one-time token; issue keys
 * resolved to titles and links (remembered ten minutes, refreshed in the background, the bare key when
 * Jira cannot be reached); and a comment on each issue a feature is linked to. The connection is here;
 * the issues are jira-issues.ts.
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
  /** The durable queue the issue comments go through, and their waits between attempts. */
  queue: JobQueue;
  retryDelaysMs: readonly number[];
  policy: OutgoingPolicy;
  /** The integrations and jira-integration flags. */
  enabled: boolean;
  publicUrl: string;
  /** BASE_DOMAIN: links back to a feature address its organisation (change-messages.ts). */
  baseDomain: string;
  logger: IntegrationsLogger;
  now?: () => Date;
}) {
  const { db, audit, team, secrets, adapter } = deps;
  const now = deps.now ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');
  const issues = createJiraIssues({ ...deps, publicUrl, now });
  const { forget } = issues;

  function assertAdmin(principal: Principal) {
    assertIntegrationsAdmin(principal, deps.enabled, JIRA_TURNED_OFF);
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
          await audit.record(
            tx,
            principal,
            integrationAudit({
              kind: 'integration.jira_connected',
              by: principal.email,
              id: created.id,
              baseUrl,
              email: input.email,
            }),
          );
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
          apiToken = credentialsOf(secrets, stored).apiToken;
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
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'integration.jira_updated',
            by: principal.email,
            id,
            baseUrl,
            email: input.email,
            tokenReplaced: input.apiToken !== undefined,
          }),
        );
        return toConnection(tx, after);
      });
      forget(organisationId);
      return connection;
    },

    /** GET /api/v1/integrations/jira/issues/{key}, the features' issue titles and the comments on linked issues (jira-issues.ts). */
    issue: issues.issue,
    describeIssues: issues.describeIssues,
    issuesLinked: issues.issuesLinked,
    /** Registers the issue comments' job with the queue (once, when the module is built). */
    registerJobs: issues.registerJobs,

    /** The connection is removed (integrations service): titles and links of its issues are forgotten. */
    async removed(executor: Executor, organisationId: string): Promise<void> {
      await deps.organisations.setJiraEnabled(executor, organisationId, false);
      await deps.issueLinks.forget(executor, organisationId);
      forget(organisationId);
    },
  };
}
