import {
  changeRequestsIn,
  can,
  changeRequestRequiredMessage,
  escapeMarkdown,
  hasProductionEditRights,
  type ApprovalSettings,
  type ChangeRequestPolicy,
  type ChangeRequestPolicyQuery,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { ChangeRequestRequiredError, ForbiddenError, assertAllowed } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { EnvironmentProtection } from '../controls/controls.service';
import type { ProjectProtection } from '../features/feature-settings-change';
import type { Scope } from '../scope/scope.service';
import { settingsOrDefault } from './change-request-facts';
import * as repo from './change-requests.repository';

/** Who may read an environment's approval settings. */
const READ_DENIED = 'Only organisation admins and production editors may read approval settings.';

/**
 * Whether a write outside a change request may change an environment (docs/adr/0024-change-requests.md),
 * read in the writer's transaction: the controls (and the other owners of protected resources) ask
 * it before they write.
 */
export function createEnvironmentProtection(): EnvironmentProtection {
  return async (executor, principal, environment, changed) => {
    const settings = await repo.settingsOf(executor, principal.organisationId, environment.id);
    if (!settings?.required) return { bypass: false };
    if (can(principal, 'bypass', changeRequestsIn(environment, environment.projectId)))
      return { bypass: true };
    const draft = await repo.openRequestFor(
      executor,
      principal.organisationId,
      environment.id,
      principal.userId,
      changed,
    );
    throw new ChangeRequestRequiredError(
      changeRequestRequiredMessage(environment.name),
      environment.key,
      draft,
    );
  };
}

/**
 * Whether a write outside a change request may change a feature's settings, which apply to every
 * environment of its project: not while one of them asks for change requests, unless the writer may
 * bypass them in each. The 409 names the first of them (production first) and the writer's request
 * there that already changes the feature, else their draft there.
 */
export function createProjectProtection(): ProjectProtection {
  return async (executor, principal, project, feature) => {
    const protectedOnes = await repo.protectedEnvironmentsOf(executor, principal.organisationId, project.id);
    if (protectedOnes.length === 0) return { bypass: false };
    const bypassing = protectedOnes.every((environment) =>
      can(principal, 'bypass', changeRequestsIn(environment, project.id)),
    );
    if (bypassing) return { bypass: true };
    const first = protectedOnes[0]!;
    const request = await repo.openRequestFor(
      executor,
      principal.organisationId,
      first.id,
      principal.userId,
      {
        type: 'feature',
        id: feature.id,
      },
    );
    throw new ChangeRequestRequiredError(changeRequestRequiredMessage(first.name), first.key, request);
  };
}

/** Whether an environment asks for change requests (for writers without a member, such as SDKs). */
export async function isEnvironmentProtected(
  executor: Executor,
  organisationId: string,
  environmentId: string,
): Promise<boolean> {
  return (await repo.settingsOf(executor, organisationId, environmentId))?.required ?? false;
}

/** The resource a policy query names, if any. */
function resourceOf(changing: ChangeRequestPolicyQuery) {
  if (changing.featureControlId) return { type: 'feature_control' as const, id: changing.featureControlId };
  if (changing.featureId) return { type: 'feature' as const, id: changing.featureId };
  if (changing.segmentId) return { type: 'segment' as const, id: changing.segmentId };
  return undefined;
}

export type ApprovalSettingsService = ReturnType<typeof createApprovalSettingsService>;

/** GET and PUT …/environments/{environmentKey}/approval-settings. */
export function createApprovalSettingsService(deps: { db: Database; audit: AuditService; scope: Scope }) {
  const { db, audit, scope } = deps;
  return {
    /** An environment's settings, as stored or the defaults; for organisation admins and production editors. */
    async get(principal: Principal, projectKey: string, environmentKey: string): Promise<ApprovalSettings> {
      if (!hasProductionEditRights(principal)) throw new ForbiddenError(READ_DENIED);
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      return settingsOrDefault(await repo.settingsOf(db, principal.organisationId, environment.id));
    },

    /** GET …/change-request-policy: for every member, whether and how the environment is protected. */
    async policy(
      principal: Principal,
      projectKey: string,
      environmentKey: string,
      changing: ChangeRequestPolicyQuery = {},
    ): Promise<ChangeRequestPolicy> {
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      const settings = await repo.settingsOf(db, principal.organisationId, environment.id);
      return {
        required: settings?.required ?? false,
        mayBypass: can(principal, 'bypass', changeRequestsIn(environment, environment.project.id)),
        changeRequestId: await repo.openRequestFor(
          db,
          principal.organisationId,
          environment.id,
          principal.userId,
          resourceOf(changing),
        ),
      };
    },

    /** Saves an environment's settings (organisation admins), audited with what changed. */
    async put(
      principal: Principal,
      projectKey: string,
      environmentKey: string,
      input: ApprovalSettings,
    ): Promise<ApprovalSettings> {
      assertAllowed(principal, 'update', { type: 'environment' });
      return db.transaction(async (tx: Executor) => {
        const environment = await scope.environment(tx, principal.organisationId, projectKey, environmentKey);
        const before = settingsOrDefault(await repo.settingsOf(tx, principal.organisationId, environment.id));
        await repo.saveSettings(tx, principal.organisationId, environment.id, input);
        const turned =
          before.required === input.required ? 'updated' : input.required ? 'turned on' : 'turned off';
        await audit.record(tx, principal, {
          action: 'update',
          resourceType: 'environment',
          resourceId: environment.id,
          projectKey: environment.project.key,
          environmentKey: environment.key,
          title: `Change requests ${turned} in ${environment.name}`,
          description: `${escapeMarkdown(principal.email)} ${turned} the approval settings of **${escapeMarkdown(environment.name)}**: ${describe(input)}.`,
          data: { before, after: input },
        });
        return input;
      });
    },
  };
}

function describe(settings: ApprovalSettings): string {
  if (!settings.required) return 'changes are written directly';
  const parts = [
    `${settings.minApprovals} approval${settings.minApprovals === 1 ? '' : 's'} needed`,
    settings.allowSelfApproval ? 'authors may approve their own' : 'authors may not approve their own',
    settings.resetApprovalsOnChange ? 'edits withdraw approvals' : 'approvals survive edits',
    settings.autoApply ? 'applied on the last approval' : 'applied by hand',
  ];
  return parts.join(', ');
}
