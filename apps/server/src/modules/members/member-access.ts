import { TEAM_ADMIN_ONLY, can, isOrganisationAdmin } from '@vexil/core';
import type { Executor } from '../../db/client';
import { ForbiddenError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import * as repo from './members.repository';
import type { MemberRecord } from './members.types';

/** Team Management is for organisation admins. */
export function assertTeamAdmin(principal: Principal): void {
  if (!can(principal, 'manage', { type: 'organisation' })) throw new ForbiddenError(TEAM_ADMIN_ONLY);
}

/**
 * Inside a write, after the organisation is locked: the caller is still an active organisation
 * admin, which a change committed since the request began (their own demotion) may have ended.
 */
export async function stillAdmin(tx: Executor, principal: Principal): Promise<MemberRecord> {
  const me = await repo.findMember(tx, principal.organisationId, principal.userId);
  if (!me || !me.activated || me.archived || !isOrganisationAdmin(me))
    throw new ForbiddenError(TEAM_ADMIN_ONLY);
  return me;
}
