import type { ChangeRequestState, RoleGrant } from '@vexil/core';
import type { Executor } from '../../db/client';
import type { Principal } from '../auth/auth.service';
import type { ControlsService } from '../controls/controls.service';
import type { ImpressionsService } from '../impressions/impressions.service';
import type { VersionsService } from '../versions/versions.service';

/** A member as a schedule acts for them: who they are, their rights now, and their organisation's domain. */
export type ScheduleMember = {
  id: string;
  email: string;
  name: string;
  authorities: string[];
  grants: RoleGrant[];
  organisationDomain: string;
};

/** What schedules ask of change requests (the change-requests module's `forSchedules`). */
export type ScheduledRequests = {
  find(
    executor: Executor,
    principal: Principal,
    projectKey: string,
    id: string,
  ): Promise<{
    state: ChangeRequestState;
    title: string;
    environmentId: string;
    authorId: string | null;
    mayApprove: boolean;
  }>;
  applyWithin(
    tx: Executor,
    principal: Principal,
    projectKey: string,
    id: string,
  ): Promise<{ state: ChangeRequestState; reason: string | null; after: (() => void)[] }>;
};

/** What the schedules module needs of the modules beside it; the composition root fills it. */
export type SchedulePorts = {
  controls: ControlsService['forSchedules'];
  versions: Pick<VersionsService, 'latest'>;
  impressions: Pick<ImpressionsService, 'total'>;
  requests: ScheduledRequests;
  /** An activated member with their rights, or null when they left. */
  member(executor: Executor, organisationId: string, userId: string): Promise<ScheduleMember | null>;
  /** Whether the environment asks for change requests. */
  isProtected(executor: Executor, organisationId: string, environmentId: string): Promise<boolean>;
};
