import {
  AUTHORITY_OPTIONS,
  ROLES_ADMINS_ONLY,
  can,
  displayName,
  roleNameTakenMessage,
  type AuthorityOption,
  type Grant,
  type RoleGrant,
  type Role,
  type RoleInput,
  type RoleMembersInput,
} from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { lockOrganisation } from '../../db/locks';
import { AppError, ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../errors';
import type { AuditService } from '../audit/audit.service';
import type { Principal } from '../auth/auth.service';
import { roleAudit } from './role-audit';
import * as repo from './roles.repository';
import type { RoleHolder, RoleRecord } from './roles.types';

export const ROLES_TURNED_OFF = 'Custom roles are turned off on this server.';
export const MEMBERS_ONLY_MESSAGE = 'Only activated members of this organisation can hold a role.';
export const UNKNOWN_PROJECT_MESSAGE = 'Choose projects of this organisation: one of these does not exist.';

/** Deleting a role someone holds is refused, naming who. */
export function roleInUseMessage(name: string, holders: readonly string[]): string {
  const shown = holders.slice(0, 5).join(', ');
  const more = holders.length > 5 ? ` and ${holders.length - 5} more` : '';
  return `The role "${name}" is held by ${shown}${more}. Take it from them before deleting it.`;
}

const nameOf = (holder: Pick<RoleHolder, 'firstName' | 'lastName' | 'email'>) => displayName(holder);

function toRole(row: RoleRecord, holders: readonly RoleHolder[]): Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    grants: row.grants,
    members: holders
      .filter((holder) => holder.roleId === row.id)
      .map((holder) => ({ id: holder.userId, name: nameOf(holder) })),
  };
}

export type RolesService = ReturnType<typeof createRolesService>;

/**
 * Custom roles (Admin › Roles, docs/product.md §6): named sets of grants that organisation admins
 * create and give to members. A member's grants add to the rights of their authority; core's `can()`
 * reads both. With the UI flag `roles-admin` off, the routes are not found and roles grant nothing.
 */
export function createRolesService(deps: {
  db: Database;
  audit: AuditService;
  enabled: boolean;
  now?: () => Date;
}) {
  const { db, audit, enabled } = deps;
  const now = deps.now ?? (() => new Date());

  function assertAdmin(principal: Principal) {
    if (!enabled) throw new AppError(404, 'Not found', ROLES_TURNED_OFF);
    if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(ROLES_ADMINS_ONLY);
  }

  async function findRole(tx: Executor, organisationId: string, id: string): Promise<RoleRecord> {
    const role = await repo.findById(tx, organisationId, id, { forUpdate: true });
    if (!role) throw new NotFoundError('role', id);
    return role;
  }

  /** Refuses grants naming a project that is not a live project of the organisation. */
  async function assertProjects(tx: Executor, organisationId: string, grants: readonly Grant[]) {
    const named = [...new Set(grants.flatMap((grant) => grant.projects ?? []))];
    const live = new Set((await repo.liveProjects(tx, organisationId, named)).map((project) => project.id));
    grants.forEach((grant, index) => {
      const position = grant.projects?.findIndex((id) => !live.has(id)) ?? -1;
      if (position >= 0)
        throw new ValidationError(`grants.${index}.projects.${position}`, UNKNOWN_PROJECT_MESSAGE);
    });
  }

  async function create(principal: Principal, input: RoleInput): Promise<Role> {
    const organisationId = principal.organisationId;
    return db.transaction(async (tx) => {
      await lockOrganisation(tx, organisationId);
      if (await repo.findByName(tx, organisationId, input.name))
        throw new ConflictError(roleNameTakenMessage(input.name), 'name');
      await assertProjects(tx, organisationId, input.grants);
      const row = await repo.insert(tx, { organisationId, ...input, at: now() });
      await audit.record(
        tx,
        principal,
        roleAudit({
          kind: 'role.created',
          by: principal.email,
          role: row,
          grants: row.grants,
          projectNames: await repo.projectNames(tx, organisationId),
        }),
      );
      return toRole(row, []);
    });
  }

  async function update(principal: Principal, id: string, input: RoleInput): Promise<Role> {
    const organisationId = principal.organisationId;
    return db.transaction(async (tx) => {
      await lockOrganisation(tx, organisationId);
      const before = await findRole(tx, organisationId, id);
      if (await repo.findByName(tx, organisationId, input.name, id))
        throw new ConflictError(roleNameTakenMessage(input.name), 'name');
      await assertProjects(tx, organisationId, input.grants);
      const row = await repo.update(tx, organisationId, id, { ...input, at: now() });
      const holders = await repo.holdersOf(tx, organisationId, [id]);
      await audit.record(
        tx,
        principal,
        roleAudit({
          kind: 'role.updated',
          by: principal.email,
          role: row,
          formerName: before.name === row.name ? null : before.name,
          grants: { before: before.grants, after: row.grants },
          projectNames: await repo.projectNames(tx, organisationId),
          holders: holders.map(nameOf),
        }),
      );
      return toRole(row, holders);
    });
  }

  return {
    /** GET /api/v1/iam/authorities: the four built-in authorities and what each may do. */
    authorities(principal: Principal): AuthorityOption[] {
      assertAdmin(principal);
      return [...AUTHORITY_OPTIONS];
    },

    /** GET /api/v1/roles: the organisation's custom roles by name, each with its members. */
    async list(principal: Principal): Promise<Role[]> {
      assertAdmin(principal);
      const rows = await repo.list(db, principal.organisationId);
      const holders = await repo.holdersOf(
        db,
        principal.organisationId,
        rows.map((row) => row.id),
      );
      return rows.map((row) => toRole(row, holders));
    },

    /**
     * PUT /api/v1/roles: creates a role (no `id`) or updates one. Names are unique in the organisation
     * without case (409 on `name`); the grants' projects must be its live projects. A change applies
     * to the role's members from their next request.
     */
    async save(principal: Principal, input: RoleInput): Promise<{ role: Role; created: boolean }> {
      assertAdmin(principal);
      try {
        if (input.id === undefined) return { role: await create(principal, input), created: true };
        return { role: await update(principal, input.id, input), created: false };
      } catch (error) {
        if (isUniqueViolation(error, 'roles_organisation_name_unique'))
          throw new ConflictError(roleNameTakenMessage(input.name), 'name');
        throw error;
      }
    },

    /** DELETE /api/v1/roles/{id}: refused (409) while members hold the role, naming them. */
    async remove(principal: Principal, id: string): Promise<void> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      await db.transaction(async (tx) => {
        const role = await findRole(tx, organisationId, id);
        const holders = await repo.holdersOf(tx, organisationId, [id]);
        if (holders.length > 0) throw new ConflictError(roleInUseMessage(role.name, holders.map(nameOf)));
        await repo.remove(tx, organisationId, id);
        await audit.record(
          tx,
          principal,
          roleAudit({ kind: 'role.deleted', by: principal.email, role: { id, name: role.name } }),
        );
      });
    },

    /**
     * PUT /api/v1/roles/{id}/members: exactly these activated members hold the role from their next
     * request on; those left out lose it.
     */
    async setMembers(principal: Principal, id: string, input: RoleMembersInput): Promise<Role> {
      assertAdmin(principal);
      const organisationId = principal.organisationId;
      return db.transaction(async (tx) => {
        // Serialised with the removal of members, which takes the same lock.
        await lockOrganisation(tx, organisationId);
        const role = await findRole(tx, organisationId, id);
        const members = await repo.membersByIds(tx, organisationId, input.userIds);
        const found = new Map(members.map((member) => [member.id, member]));
        input.userIds.forEach((userId, index) => {
          if (!found.get(userId)?.activated)
            throw new ValidationError(`userIds.${index}`, MEMBERS_ONLY_MESSAGE);
        });
        const before = await repo.holdersOf(tx, organisationId, [id]);
        const had = new Set(before.map((holder) => holder.userId));
        const wanted = new Set(input.userIds);
        const added = members.filter((member) => !had.has(member.id));
        const removed = before.filter((holder) => !wanted.has(holder.userId));
        await repo.setHolders(tx, organisationId, id, input.userIds, now());
        if (added.length > 0 || removed.length > 0) {
          await audit.record(
            tx,
            principal,
            roleAudit({
              kind: 'role.members_changed',
              by: principal.email,
              role: { id, name: role.name },
              added: added.map(nameOf),
              removed: removed.map(nameOf),
            }),
          );
        }
        return toRole(role, await repo.holdersOf(tx, organisationId, [id]));
      });
    },

    /**
     * The grants of the custom roles a member holds, read at every authenticated request so that a
     * change applies at once; none while custom roles are turned off.
     */
    async grantsOf(organisationId: string, userId: string): Promise<RoleGrant[]> {
      if (!enabled) return [];
      return repo.grantsOf(db, organisationId, userId);
    },
  };
}
