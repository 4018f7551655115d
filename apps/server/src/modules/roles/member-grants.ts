import type { RoleGrant } from '@vexil/core';
import type { Executor } from '../../db/client';
import * as repo from './roles.repository';

/**
 * The grants of every member's custom roles, by member, for those who ask who holds which rights
 * (change requests' reviewers); none while custom roles are turned off, as at each request.
 */
export function createMemberGrants(deps: { enabled: boolean }) {
  return async (executor: Executor, organisationId: string): Promise<Map<string, RoleGrant[]>> =>
    deps.enabled ? repo.grantsByMember(executor, organisationId) : new Map();
}
