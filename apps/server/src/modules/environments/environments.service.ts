import {
  LAST_ENVIRONMENT_MESSAGE,
  MASKED_SERVER_SDK_KEY,
  canSeeServerSdkKey,
  defaultSdkCanCreateFeatures,
  type Environment,
  type EnvironmentInput,
  type EnvironmentUpdateInput,
  type ProjectRef,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import type { ChangeEvents } from '../../lib/change-events';
import { newSdkKey } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import { authorOf, originOf, type VersionsService } from '../versions/versions.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import { environmentAudit } from './environment-audit';
import { audited, createEnvironmentChange, nextSdkCanCreateFeatures } from './environment-change';
import { createEnvironmentHistory } from './environment-history';
import { recordEnvironmentVersion } from './environment-versions';
import * as repo from './environments.repository';
import type { EnvironmentRecord } from './environments.types';

export type SdkKeyKind = 'server' | 'js';

/**
 * An environment as `principal` may see it: the server SDK key only for those who may change the
 * environment's flags (production rights in production, see core's `canSeeServerSdkKey`), since with
 * it anyone can download every rule and register features; others get the masked key. The JS client
 * key is public.
 */
export function toEnvironment(principal: Principal, row: EnvironmentRecord, projectKey: string): Environment {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    url: row.url ?? '',
    color: row.color,
    local: row.local,
    production: row.production,
    isProduction: row.production,
    projectKey,
    tags: row.tags,
    sdkCanCreateFeatures: row.sdkCanCreateFeatures,
    apiKey: canSeeServerSdkKey(principal, {
      production: row.production,
      tags: row.tags,
      projectId: row.projectId,
    })
      ? row.serverApiKey
      : MASKED_SERVER_SDK_KEY,
    jsApiKey: row.jsApiKey,
    lastModifiedDate: row.updatedAt.toISOString(),
  };
}

function keyTakenError(key: string) {
  return new ValidationError('key', `An environment with the key "${key}" already exists in this project.`);
}

export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;

export function createEnvironmentsService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  controls: ControlsService;
  events: ChangeEvents;
  scope: Scope;
  versions: VersionsService;
  now?: () => Date;
}) {
  const { db, audit, billing, controls, events, scope, versions } = deps;
  const now = deps.now ?? (() => new Date());
  const change = createEnvironmentChange({ db, audit, billing, versions, events, now });

  function assertAdmin(principal: Principal, action: 'create' | 'update' | 'delete') {
    assertAllowed(principal, action, { type: 'environment' });
  }

  /** Inside the change's transaction: see ChangeEvents.within; publish the answer after the commit. */
  function changedWithin(tx: Executor, organisationId: string, environmentId: string) {
    return events.within(tx, { type: 'environment.changed', organisationId, environmentId });
  }

  async function insertEnvironment(
    tx: Executor,
    principal: Principal,
    project: ProjectRef,
    input: Omit<EnvironmentInput, 'projectKey' | 'id'>,
  ): Promise<EnvironmentRecord & { version: number | undefined }> {
    const at = now();
    const row = await repo.insert(tx, {
      organisationId: principal.organisationId,
      projectId: project.id,
      name: input.name,
      key: input.key,
      url: input.url || null,
      color: input.color,
      local: input.local,
      production: input.production,
      tags: input.tags,
      sdkCanCreateFeatures: input.sdkCanCreateFeatures ?? defaultSdkCanCreateFeatures(input),
      serverApiKey: newSdkKey('server'),
      jsApiKey: newSdkKey('js'),
      createdAt: at,
      updatedAt: at,
    });
    await controls.createForEnvironment(tx, {
      organisationId: principal.organisationId,
      projectId: project.id,
      environmentId: row.id,
      cloneFromEnvironmentId: input.cloneEnvironmentId,
      author: authorOf(principal),
      origin: originOf(principal),
    });
    const version = await recordEnvironmentVersion(versions, tx, {
      organisationId: principal.organisationId,
      environment: row,
      author: authorOf(principal),
      origin: originOf(principal),
      before: null,
    });
    return { ...row, version };
  }

  return {
    toEnvironment,

    /** The versions of each environment's settings: list, one, diff and restore (docs/adr/0022-versions.md). */
    history: createEnvironmentHistory({
      db,
      versions,
      change,
      toEnvironment,
      announce: (event) => events.publish(event),
    }),

    /** Live environments of these projects as `principal` may see them, grouped by project id. */
    async listByProjects(
      executor: Executor,
      principal: Principal,
      projects: Pick<ProjectRef, 'id' | 'key'>[],
    ) {
      const rows = await repo.listByProjects(
        executor,
        principal.organisationId,
        projects.map((p) => p.id),
      );
      const keyOf = new Map(projects.map((p) => [p.id, p.key]));
      const grouped = new Map<string, Environment[]>(projects.map((p) => [p.id, []]));
      for (const row of rows)
        grouped.get(row.projectId)?.push(toEnvironment(principal, row, keyOf.get(row.projectId)!));
      return grouped;
    },

    /** GET /api/v1/environments/{projectKey}/{environmentKey}: by key, or by id (the dashboard rewrites ids to keys). */
    async get(principal: Principal, projectKey: string, keyOrId: string): Promise<Environment> {
      const found = await repo.findByProjectKey(db, principal.organisationId, projectKey, keyOrId);
      if (!found) throw new NotFoundError('environment', `${projectKey}/${keyOrId}`);
      return toEnvironment(principal, found.environment, found.project.key);
    },

    /** POST /api/v1/environments/ */
    async create(principal: Principal, input: EnvironmentInput): Promise<Environment> {
      assertAdmin(principal, 'create');
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new environment has no id: use PUT to update.');
      const organisationId = principal.organisationId;
      try {
        const { row, project, changed } = await db.transaction(async (tx) => {
          await lockOrganisation(tx, organisationId);
          const project = await scope.project(tx, organisationId, input.projectKey);
          await billing.assertActive(tx, organisationId);
          if (await repo.keyTaken(tx, project.id, input.key)) throw keyTakenError(input.key);
          if (input.cloneEnvironmentId) {
            const source = await repo.findById(tx, organisationId, input.cloneEnvironmentId);
            if (!source || source.project.id !== project.id) {
              throw new ValidationError(
                'cloneEnvironmentId',
                'The environment to copy must belong to the same project.',
              );
            }
          }
          await billing.assertWithinLimit(tx, organisationId, 'maxEnvironments');
          const row = await insertEnvironment(tx, principal, project, input);
          await audit.record(
            tx,
            principal,
            environmentAudit({
              kind: 'environment.created',
              by: principal.email,
              environment: audited(row),
              project: { key: project.key, name: project.name },
              cloned: Boolean(input.cloneEnvironmentId),
              version: row.version,
            }),
          );
          return { row, project, changed: await changedWithin(tx, organisationId, row.id) };
        });
        events.publish(changed);
        return toEnvironment(principal, row, project.key);
      } catch (error) {
        if (isUniqueViolation(error, 'environments_project_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /**
     * The environments a new project starts with, created in the project's transaction: as many of
     * `defaults` as the plan's environment limit leaves room for (at least one, or the limit's 400).
     */
    async createDefaults(
      tx: Executor,
      principal: Principal,
      project: ProjectRef,
      defaults: readonly Omit<EnvironmentInput, 'projectKey' | 'id'>[],
    ): Promise<EnvironmentRecord[]> {
      const organisationId = principal.organisationId;
      const room = await billing.remaining(tx, organisationId, 'maxEnvironments');
      if (room < 1) {
        await billing.assertWithinLimit(tx, organisationId, 'maxEnvironments');
      }
      const created: EnvironmentRecord[] = [];
      for (const input of defaults.slice(0, Math.max(1, Math.min(defaults.length, room)))) {
        created.push(await insertEnvironment(tx, principal, project, input));
      }
      return created;
    },

    /**
     * PUT /api/v1/environments/: the key and the project stay as they are, and so does a field the
     * body leaves out.
     */
    async update(principal: Principal, input: EnvironmentUpdateInput): Promise<Environment> {
      assertAdmin(principal, 'update');
      if (input.id === undefined)
        throw new ValidationError('id', 'An id is required to update an environment.');
      const id = input.id;
      const row = await change(
        principal,
        id,
        {
          origin: originOf(principal, input.comment),
          projectKey: input.projectKey,
          basedOn: input.lastModifiedDate,
        },
        (before) => {
          const kept = {
            url: input.url ?? before.url,
            color: input.color ?? before.color,
            local: input.local ?? before.local,
            production: input.production ?? before.production,
            tags: input.tags ?? before.tags,
          };
          return {
            name: input.name,
            key: input.key,
            ...kept,
            sdkCanCreateFeatures: nextSdkCanCreateFeatures(before, {
              ...kept,
              sdkCanCreateFeatures: input.sdkCanCreateFeatures,
            }),
          };
        },
      );
      events.publish(row.changed);
      return toEnvironment(principal, row.after, row.projectKey);
    },

    /** DELETE /api/v1/environments/{id}: archives it; its SDK keys stop working at once. */
    async remove(principal: Principal, id: string): Promise<void> {
      assertAdmin(principal, 'delete');
      const organisationId = principal.organisationId;
      const removed = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const found = await repo.findById(tx, organisationId, id);
        if (!found) throw new NotFoundError('environment', id);
        await billing.assertActive(tx, organisationId);
        const { environment, project } = found;
        if ((await repo.countLiveInProject(tx, organisationId, project.id)) <= 1) {
          throw new BadRequestError(LAST_ENVIRONMENT_MESSAGE);
        }
        const at = now();
        await repo.update(tx, organisationId, id, { archived: true, archivedAt: at, updatedAt: at });
        await audit.record(
          tx,
          principal,
          environmentAudit({
            kind: 'environment.deleted',
            by: principal.email,
            environment: audited({ ...environment, id }),
            project: { key: project.key, name: project.name },
          }),
        );
        return events.within(tx, { type: 'environment.removed', organisationId, environmentId: id });
      });
      events.publish(removed);
    },

    /** Archives every environment of a project being removed, in the project's transaction. */
    async archiveAllOfProject(
      tx: Executor,
      organisationId: string,
      projectId: string,
    ): Promise<EnvironmentRecord[]> {
      return repo.archiveAllOfProject(tx, organisationId, projectId, now());
    },

    /** Replaces one SDK key: the new one works at once and the old one stops at once. */
    async rotateKey(principal: Principal, id: string, kind: SdkKeyKind): Promise<Environment> {
      assertAdmin(principal, 'update');
      const organisationId = principal.organisationId;
      const result = await db.transaction(async (tx) => {
        const found = await repo.findById(tx, organisationId, id);
        if (!found) throw new NotFoundError('environment', id);
        const { project } = found;
        const change =
          kind === 'server' ? { serverApiKey: newSdkKey('server') } : { jsApiKey: newSdkKey('js') };
        const after = await repo.update(tx, organisationId, id, { ...change, updatedAt: now() });
        await audit.record(
          tx,
          principal,
          environmentAudit({
            kind: 'environment.key_rotated',
            by: principal.email,
            environment: audited({ ...after, id }),
            project: { key: project.key, name: project.name },
            sdk: kind,
          }),
        );
        return { after, projectKey: project.key, changed: await changedWithin(tx, organisationId, id) };
      });
      events.publish(result.changed);
      return toEnvironment(principal, result.after, result.projectKey);
    },
  };
}
