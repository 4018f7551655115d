import type { FastifyInstance } from 'fastify';
import { accountRoutes } from '../modules/account/account.routes';
import { auditRoutes } from '../modules/audit/audit.routes';
import { authRoutes } from '../modules/auth/auth.routes';
import { billingRoutes } from '../modules/billing/billing.routes';
import { changeRequestsRoutes } from '../modules/change-requests/change-requests.routes';
import { schedulesRoutes } from '../modules/schedules/schedules.routes';
import { guardsRoutes } from '../modules/guards/guards.routes';
import { controlsRoutes } from '../modules/controls/controls.routes';
import { environmentsRoutes } from '../modules/environments/environments.routes';
import { experimentsRoutes } from '../modules/experiments/experiments.routes';
import { featureHistoryRoutes } from '../modules/features/feature-history.routes';
import { featuresRoutes } from '../modules/features/features.routes';
import { healthRoutes } from '../modules/health/health.routes';
import type { HealthService } from '../modules/health/health.service';
import { integrationsRoutes } from '../modules/integrations/integrations.routes';
import { webhooksRoutes } from '../modules/integrations/webhooks.routes';
import { registerLiveRoutes } from '../modules/live/live.routes';
import { membersRoutes } from '../modules/members/members.routes';
import { projectsRoutes } from '../modules/projects/projects.routes';
import { rolesRoutes } from '../modules/roles/roles.routes';
import { segmentsRoutes } from '../modules/segments/segments.routes';
import { signupRoutes } from '../modules/signup/signup.routes';
import { ssoRoutes } from '../modules/sso/sso.routes';
import { targetUsersRoutes } from '../modules/target-users/target-users.routes';
import { targetsRoutes } from '../modules/targets/targets.routes';
import { teamRoutes } from '../modules/team/team.routes';
import { tokensRoutes } from '../modules/tokens/tokens.routes';
import type { AppServices } from './services';

/** The dashboard API's routes, each module's plugin over its service. */
export async function registerDashboardRoutes(
  app: FastifyInstance,
  services: AppServices,
  health: HealthService,
) {
  await app.register(healthRoutes({ health }));
  await app.register(authRoutes({ auth: services.auth }));
  await app.register(accountRoutes({ account: services.account }));
  await app.register(auditRoutes({ audit: services.audit }));
  await app.register(projectsRoutes({ projects: services.projects }));
  await app.register(environmentsRoutes({ environments: services.environments }));
  await app.register(featuresRoutes({ features: services.features, read: services.featureReads }));
  await app.register(controlsRoutes({ controls: services.controls }));
  await app.register(
    featureHistoryRoutes({ controls: services.controls.history, settings: services.features.history }),
  );
  await app.register(
    changeRequestsRoutes({
      changeRequests: services.changeRequests,
      approvalSettings: services.approvalSettings,
    }),
  );
  await app.register(schedulesRoutes({ schedules: services.schedules }));
  await app.register(guardsRoutes({ guards: services.guards }));
  await app.register(teamRoutes({ team: services.team }));
  await app.register(membersRoutes({ members: services.members }));
  await app.register(targetsRoutes({ targets: services.targets }));
  await app.register(segmentsRoutes({ segments: services.segments }));
  await app.register(experimentsRoutes({ experiments: services.experiments }));
  registerLiveRoutes(app, { hub: services.live });
  await app.register(targetUsersRoutes({ targetUsers: services.targetUsers }));
  await app.register(tokensRoutes({ tokens: services.tokens }));
  await app.register(rolesRoutes({ roles: services.roles }));
  await app.register(signupRoutes({ signup: services.signup }));
  await app.register(ssoRoutes({ sso: services.sso }));
  await app.register(
    integrationsRoutes({
      integrations: services.integrations.integrations,
      jira: services.integrations.jira,
    }),
  );
  await app.register(webhooksRoutes({ webhooks: services.integrations.webhooks }));
  await app.register(billingRoutes({ billing: services.billingAccount, plans: services.billingPlan }));
}
