import { displayName } from '@vexil/core';
import type { Database, Executor } from '../../db/client';
import { ValidationError } from '../../errors';
import type { Principal } from '../auth/auth.service';
import * as repo from './team.repository';
import type { MemberName } from './team.types';

/** Most members the picker returns. */
export const MEMBER_SEARCH_LIMIT = 50;

/** A member as features and other records show them. */
export type MemberSummary = { id: string; name: string; email: string };

function summary(member: MemberName): MemberSummary {
  return { id: member.id, name: displayName(member), email: member.email };
}

export type TeamService = ReturnType<typeof createTeamService>;

/** The organisation's members as other domains see them; the team screens will grow here. */
export function createTeamService(deps: { db: Database }) {
  const { db } = deps;
  return {
    /** GET /api/v1/members?query=: who can maintain a feature. */
    async search(principal: Principal, text: string | undefined): Promise<MemberSummary[]> {
      const rows = await repo.search(
        db,
        principal.organisationId,
        text?.trim() || undefined,
        MEMBER_SEARCH_LIMIT,
      );
      return rows.map(summary);
    },

    /** Members by id, as summaries keyed by id; unknown ids are left out. */
    async summariesOf(
      executor: Executor,
      organisationId: string,
      ids: readonly string[],
    ): Promise<Map<string, MemberSummary>> {
      const rows = await repo.byIds(executor, organisationId, [...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, summary(row)]));
    },

    /** Activated, live members with their authorities and names (who may review a change request). */
    async activeMembers(executor: Executor, organisationId: string) {
      const rows = await repo.activeWithAuthorities(executor, organisationId);
      return rows.map((row) => ({ ...summary(row), authorities: row.authorities }));
    },

    /** Refuses a maintainer who is not a member of the organisation. */
    async assertMember(executor: Executor, organisationId: string, userId: string | null, field: string) {
      if (userId === null) return;
      const [found] = await repo.byIds(executor, organisationId, [userId]);
      if (!found) throw new ValidationError(field, 'The maintainer must be a member of this organisation.');
    },
  };
}
