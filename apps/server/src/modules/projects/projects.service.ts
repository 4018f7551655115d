import {
  DEFAULT_ENVIRONMENT_COLOR,
  LAST_PROJECT_MESSAGE,
  type EnvironmentInput,
  type Project,
  type ProjectInput,
} from '@vexil/core';
import { readTogether, type Database, type Executor, type Transaction } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { isUuid } from '../../db/text-search';
import { BadRequestError, NotFoundError, ValidationError, assertAllowed } from '../../errors';
import type { ChangeEvent, ChangeEvents } from '../../lib/change-events';
import { changedSince } from '../../lib/versions';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { EnvironmentsService } from '../environments/environments.service';
import type { FeaturesService } from '../features/features.service';
import { projectAudit } from './project-audit';
import * as repo from './projects.repository';
import type { ProjectRecord } from './projects.types';

/** The environments a new project starts with (fewer when the plan's environment limit is near). */
export const DEFAULT_PROJECT_ENVIRONMENTS: readonly Omit<EnvironmentInput, 'projectKey' | 'id'>[] = [
  {
    name: 'Production',
    key: 'production',
    url: '',
    color: '#d0021b',
    local: false,
    production: true,
    tags: [],
  },
  {
    name: 'Development',
    key: 'development',
    url: '',
    color: DEFAULT_ENVIRONMENT_COLOR,
    local: false,
    production: false,
    tags: [],
  },
];

function keyTakenError(key: string) {
  return new ValidationError('key', `A project with the key "${key}" already exists.`);
}

export type ProjectsService = ReturnType<typeof createProjectsService>;

export function createProjectsService(deps: {
  db: Database;
  audit: AuditService;
  billing: BillingService;
  environments: EnvironmentsService;
  /** A removed project's features are archived with it (the features module writes them). */
  features: Pick<FeaturesService, 'archiveAllOf'>;
  events: ChangeEvents;
  now?: () => Date;
}) {
  const { db, audit, billing, environments, features, events } = deps;
  const now = deps.now ?? (() => new Date());

  function assertAdmin(principal: Principal, action: 'create' | 'update' | 'delete') {
    assertAllowed(principal, action, { type: 'project' });
  }

  /** Projects as `principal` may see them: server SDK keys masked where they may not change the environment. */
  async function toProjects(
    executor: Executor,
    principal: Principal,
    rows: ProjectRecord[],
  ): Promise<Project[]> {
    const [environmentsByProject, targets] = await readTogether(executor, [
      () => environments.listByProjects(executor, principal, rows),
      () =>
        repo.listTargets(
          executor,
          principal.organisationId,
          rows.map((r) => r.id),
        ),
    ]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      key: row.key,
      url: row.url ?? '',
      tags: row.tags,
      environments: environmentsByProject.get(row.id) ?? [],
      targets: targets
        .filter((t) => t.projectId === row.id)
        .map(({ key, name, type }) => ({ key, name, type })),
      lastModifiedDate: row.updatedAt.toISOString(),
    }));
  }

  async function toProject(executor: Executor, principal: Principal, row: ProjectRecord): Promise<Project> {
    const [project] = await toProjects(executor, principal, [row]);
    return project!;
  }

  /**
   * A project and its first environments, audited, inside the caller's transaction (POST
   * /api/v1/projects/ below; a sign-up's first project). The other instances hear of its
   * environments with the commit; the caller announces them here once it has committed
   * ({@link announceEnvironments}).
   */
  async function createWithin(
    tx: Transaction,
    principal: Principal,
    input: Pick<ProjectInput, 'name' | 'key'>,
  ): Promise<{ project: Project; changed: ChangeEvent[] }> {
    assertAdmin(principal, 'create');
    const organisationId = principal.organisationId;
    await lockOrganisation(tx, organisationId);
    await billing.assertActive(tx, organisationId);
    if (await repo.findByKey(tx, organisationId, input.key)) throw keyTakenError(input.key);
    await billing.assertWithinLimit(tx, organisationId, 'maxProjects');
    const at = now();
    const row = await repo.insert(tx, {
      organisationId,
      name: input.name,
      key: input.key,
      createdAt: at,
      updatedAt: at,
    });
    const created = await environments.createDefaults(tx, principal, row, DEFAULT_PROJECT_ENVIRONMENTS);
    await audit.record(
      tx,
      principal,
      projectAudit({
        kind: 'project.created',
        by: principal.email,
        project: row,
        environments: created.map((e) => e.name),
      }),
    );
    const changed = await events.withinAll(
      tx,
      created.map((environment) => ({
        type: 'environment.changed',
        organisationId,
        environmentId: environment.id,
      })),
    );
    return { project: await toProject(tx, principal, row), changed };
  }

  /** Tells this instance's SDK side that these environments changed (after the transaction that did it). */
  function announceEnvironments(changed: readonly ChangeEvent[]): void {
    for (const event of changed) events.publish(event);
  }

  return {
    /**
     * GET /api/v1/projects?query=: every member may read projects, their JS client keys, and the server
     * keys of the environments they may change.
     */
    async list(principal: Principal, query?: string): Promise<Project[]> {
      const rows = await repo.list(db, principal.organisationId, query?.trim() || undefined);
      return toProjects(db, principal, rows);
    },

    /** GET /api/v1/projects/{key} */
    async get(principal: Principal, key: string): Promise<Project> {
      const row = await repo.findByKey(db, principal.organisationId, key);
      if (!row) throw new NotFoundError('project', key);
      return toProject(db, principal, row);
    },

    createWithin,
    announceEnvironments,

    /** POST /api/v1/projects/: the project and its first environments, in one transaction. */
    async create(principal: Principal, input: ProjectInput): Promise<Project> {
      assertAdmin(principal, 'create');
      if (input.id !== undefined)
        throw new ValidationError('id', 'A new project has no id: use PUT to update.');
      try {
        const result = await db.transaction((tx) => createWithin(tx, principal, input));
        announceEnvironments(result.changed);
        return result.project;
      } catch (error) {
        if (isUniqueViolation(error, 'projects_organisation_key_unique')) throw keyTakenError(input.key);
        throw error;
      }
    },

    /** PUT /api/v1/projects/: renames; the key is fixed at creation. */
    async update(principal: Principal, input: ProjectInput): Promise<Project> {
      assertAdmin(principal, 'update');
      if (input.id === undefined) throw new ValidationError('id', 'An id is required to update a project.');
      const id = input.id;
      const organisationId = principal.organisationId;
      return db.transaction(async (tx) => {
        const before = await repo.findById(tx, organisationId, id, { forUpdate: true });
        if (!before) throw new NotFoundError('project', id);
        await billing.assertActive(tx, organisationId);
        if (changedSince(before.updatedAt, input.lastModifiedDate))
          throw await audit.staleWrite(tx, principal, { type: 'project', id }, 'project');
        if (input.key !== before.key)
          throw new ValidationError('key', 'The key of a project cannot be changed.');
        const after = await repo.update(tx, organisationId, id, { name: input.name, updatedAt: now() });
        await audit.record(
          tx,
          principal,
          projectAudit({
            kind: 'project.updated',
            by: principal.email,
            project: { id, key: after.key },
            name: { from: before.name, to: after.name },
          }),
        );
        return toProject(tx, principal, after);
      });
    },

    /**
     * DELETE /api/v1/projects/{id}: by id or key (the admin page passes the key). Archives the
     * project with its environments and features; their SDK keys stop working at once.
     */
    async remove(principal: Principal, idOrKey: string): Promise<void> {
      assertAdmin(principal, 'delete');
      const organisationId = principal.organisationId;
      const archived = await db.transaction(async (tx) => {
        await lockOrganisation(tx, organisationId);
        const row = isUuid(idOrKey)
          ? await repo.findById(tx, organisationId, idOrKey)
          : await repo.findByKey(tx, organisationId, idOrKey.toLowerCase());
        if (!row) throw new NotFoundError('project', idOrKey);
        await billing.assertActive(tx, organisationId);
        if ((await repo.countLive(tx, organisationId)) <= 1) throw new BadRequestError(LAST_PROJECT_MESSAGE);
        const at = now();
        const featureCount = await features.archiveAllOf(tx, organisationId, row.id, at);
        const removed = await environments.archiveAllOfProject(tx, organisationId, row.id);
        await repo.update(tx, organisationId, row.id, { archived: true, archivedAt: at, updatedAt: at });
        await audit.record(
          tx,
          principal,
          projectAudit({
            kind: 'project.deleted',
            by: principal.email,
            project: row,
            archived: { environments: removed.length, features: featureCount },
          }),
        );
        return events.withinAll(
          tx,
          removed.map((environment) => ({
            type: 'environment.removed',
            organisationId,
            environmentId: environment.id,
          })),
        );
      });
      for (const event of archived) events.publish(event);
    },
  };
}
