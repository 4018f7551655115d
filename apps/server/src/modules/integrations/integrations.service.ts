import {
  INTEGRATION_EVENT_KINDS,
  type Integration,
  type IntegrationEventKind,
  type IntegrationFilters,
  type IntegrationsAvailable,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError, NotFoundError } from '../../errors';
import type { SecretBox } from '../../lib/secret-box';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { TeamService } from '../team/team.service';
import { assertIntegrationsAdmin, secretContext, type IntegrationsLogger } from './access';
import * as repo from './integrations.repository';
import type { IntegrationRecord, IntegrationSecrets, SlackConfiguration } from './integrations.types';
import type { JiraService } from './jira.service';
import { type SlackAdapter } from './slack-adapter';
import { NO_FILTERS, createSlackInstall } from './slack-install';
import { integrationAudit } from './integration-audit';

export {
  SLACK_CALLBACK_PATH,
  SLACK_NOT_CONFIGURED,
  SLACK_STATE_MS,
  type SlackCallback,
} from './slack-install';

export const NO_FILTERS_FOR_JIRA = 'Only Slack integrations have filters.';

/** A Slack integration's filters as stored, without event kinds this version no longer knows. */
export function filtersOf(configuration: SlackConfiguration): IntegrationFilters {
  const stored = configuration.filters ?? NO_FILTERS;
  const kinds: readonly string[] = INTEGRATION_EVENT_KINDS;
  return {
    projectKeys: stored.projectKeys,
    environmentKeys: stored.environmentKeys,
    events: stored.events.filter((event): event is IntegrationEventKind => kinds.includes(event)),
  };
}

export type IntegrationsService = ReturnType<typeof createIntegrationsService>;

/**
 * The Integrations screen (docs/product.md "Integrations"): installed integrations, removing them, the
 * chat service's OAuth install (slack-install.ts) and the filters of what it is told. The changes
 * themselves are passed on by the queue's jobs (change-jobs.ts, docs/adr/0023-durable-queue.md).
 */
export function createIntegrationsService(deps: {
  db: Database;
  audit: AuditService;
  team: TeamService;
  secrets: SecretBox;
  slack: SlackAdapter;
  jira: JiraService;
  /** The integrations flag. */
  enabled: boolean;
  jiraEnabled: boolean;
  publicUrl: string;
  baseDomain: string;
  logger: IntegrationsLogger;
  now?: () => Date;
}) {
  const { db, audit, team, secrets, slack, jira } = deps;
  const now = deps.now ?? (() => new Date());
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');

  function assertAdmin(principal: Principal) {
    assertIntegrationsAdmin(principal, deps.enabled);
  }

  const slackInstall = createSlackInstall({ ...deps, publicUrl, now, assertAdmin });

  async function toIntegrations(rows: IntegrationRecord[], organisationId: string): Promise<Integration[]> {
    const members = await team.summariesOf(
      db,
      organisationId,
      rows.flatMap((row) => (row.memberId ? [row.memberId] : [])),
    );
    return rows.map((row) => {
      const member = { name: (row.memberId && members.get(row.memberId)?.name) || 'A former member' };
      const createdDate = row.createdAt.toISOString();
      if (row.type === 'slack') {
        const configuration = row.configuration as SlackConfiguration;
        return {
          id: row.id,
          type: 'slack' as const,
          member,
          configuration: {
            incomingWebhook: { channel: configuration.incomingWebhook.channel },
            ...(configuration.teamName ? { teamName: configuration.teamName } : {}),
          },
          filters: filtersOf(configuration),
          createdDate,
        };
      }
      return {
        id: row.id,
        type: 'jira' as const,
        member,
        configuration: { baseUrl: (row.configuration as { baseUrl: string }).baseUrl },
        createdDate,
      };
    });
  }

  return {
    /** GET /api/v1/integrations */
    async list(principal: Principal): Promise<Integration[]> {
      assertAdmin(principal);
      const rows = await repo.listIntegrations(db, principal.organisationId);
      return toIntegrations(
        rows.filter((row) => row.type === 'slack' || deps.jiraEnabled),
        principal.organisationId,
      );
    },

    /** GET /api/v1/integrations/available */
    async available(principal: Principal): Promise<IntegrationsAvailable> {
      assertAdmin(principal);
      const [connected] = await repo.listIntegrations(db, principal.organisationId, 'jira');
      return {
        slack: { configured: slack.configured },
        jira: { enabled: deps.jiraEnabled, connectedId: connected?.id ?? null },
      };
    },

    /** DELETE /api/v1/integrations/{id} */
    async remove(principal: Principal, id: string): Promise<void> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const before = await repo.findIntegration(tx, organisationId, id, { forUpdate: true });
        if (!before || !(await repo.deleteIntegration(tx, organisationId, id)))
          throw new NotFoundError('integration', id);
        if (before.type === 'jira') await jira.removed(tx, organisationId);
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'integration.removed',
            by: principal.email,
            id,
            integration:
              before.type === 'slack'
                ? {
                    type: 'slack',
                    channel: (before.configuration as SlackConfiguration).incomingWebhook.channel,
                  }
                : { type: 'jira', baseUrl: (before.configuration as { baseUrl: string }).baseUrl },
          }),
        );
      });
    },

    /** PUT /api/v1/integrations/{id}/filters: which projects, environments and events Slack is told of. */
    async setFilters(principal: Principal, id: string, filters: IntegrationFilters): Promise<Integration> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      const row = await db.transaction(async (tx) => {
        const before = await repo.findIntegration(tx, organisationId, id, { forUpdate: true });
        if (!before) throw new NotFoundError('integration', id);
        if (before.type !== 'slack') throw new BadRequestError(NO_FILTERS_FOR_JIRA);
        const next: IntegrationFilters = {
          projectKeys: [...new Set(filters.projectKeys)],
          environmentKeys: [...new Set(filters.environmentKeys)],
          events: [...new Set(filters.events)],
        };
        const configuration = before.configuration as SlackConfiguration;
        const after = await repo.updateIntegration(tx, organisationId, id, {
          configuration: { ...configuration, filters: next },
          updatedAt: now(),
        });
        await audit.record(
          tx,
          principal,
          integrationAudit({
            kind: 'integration.slack_filters_changed',
            by: principal.email,
            id,
            channel: configuration.incomingWebhook.channel,
            filters: next,
          }),
        );
        return after;
      });
      const [integration] = await toIntegrations([row], organisationId);
      return integration!;
    },

    /** GET /api/v1/integrations/slack/install and /callback: adding Slack (slack-install.ts). */
    ...slackInstall,

    /** Encrypts every integration secret with the current key (a SECRETS_KEY rotation); how many were. */
    async reencryptSecrets(): Promise<number> {
      let changed = 0;
      for (const row of await repo.allIntegrationSecrets(db)) {
        const next: IntegrationSecrets = { ...row.secrets };
        let touched = false;
        for (const field of Object.keys(row.secrets) as (keyof IntegrationSecrets)[]) {
          const value = row.secrets[field];
          const again = value ? secrets.reencrypt(value, secretContext(field, row.organisationId)) : null;
          if (again) {
            next[field] = again;
            touched = true;
          }
        }
        if (touched) {
          await repo.setIntegrationSecrets(db, row.id, next);
          changed++;
        }
      }
      return changed;
    },
  };
}
