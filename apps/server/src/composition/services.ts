// Over 400 lines on purpose: the composition root builds every service as one tree, lower modules
// first (ADR 0019), so that the order in which ports are filled reads top to bottom in one place.
import path from 'node:path';
import type { Config } from '../config';
import type { DatabaseHandle, Executor } from '../db/client';
import { createChangeEvents } from '../lib/change-events';
import { createMailer } from '../lib/mailer';
import { createOutgoingFetch } from '../lib/outgoing-url';
import { createSecretBox } from '../lib/secret-box';
import { createAccountService } from '../modules/account/account.service';
import { createAuditService } from '../modules/audit/audit.service';
import { createAuthService } from '../modules/auth/auth.service';
import { createBillingAccountService } from '../modules/billing/billing-account.service';
import type { BillingProvider } from '../modules/billing/billing-provider';
import { createBillingPlanService } from '../modules/billing/billing-plan.service';
import { createBillingService } from '../modules/billing/billing.service';
import { createBillingProvider } from '../modules/billing/providers/index';
import { createControlsService } from '../modules/controls/controls.service';
import {
  createApprovalSettingsService,
  createEnvironmentProtection,
  createProjectProtection,
  isEnvironmentProtected,
} from '../modules/change-requests/approval-settings';
import { createChangeRequestNotices } from '../modules/change-requests/change-request-notices';
import { createChangeRequestsService } from '../modules/change-requests/change-requests.service';
import { createMemberGrants } from '../modules/roles/member-grants';
import { createVersionsService } from '../modules/versions/versions.service';
import { createEnvironmentsService } from '../modules/environments/environments.service';
import { ensureGoals } from '../modules/experiments/goals';
import { createExperimentsService } from '../modules/experiments/experiments.service';
import { createFeatureReadModel } from '../modules/features/feature-read-model';
import { createFeaturesService } from '../modules/features/features.service';
import { createMaintainerRelease } from '../modules/features/feature-maintainers';
import { issueLinkWriter } from '../modules/features/ports';
import { createSdkRegistration } from '../modules/features/sdk-registration';
import { createImpressionsService } from '../modules/impressions/impressions.service';
import {
  createIntegrationsModule,
  type IntegrationsOptions,
} from '../modules/integrations/integrations.module';
import { integrationsOutbox } from '../modules/integrations/change-jobs';
import { createLiveHub } from '../modules/live/live.hub';
import { createMailQueue, type MailOptions } from '../modules/mail/mail-queue';
import { createMembersService, type MembersLogger } from '../modules/members/members.service';
import { createOrganisationsService } from '../modules/organisations/organisations.service';
import { createProjectsService } from '../modules/projects/projects.service';
import { createQueue } from '../modules/queue/queue.service';
import { createScheduleNotices } from '../modules/schedules/schedule-notices';
import type { SchedulePorts } from '../modules/schedules/schedule-ports';
import { createSchedulesService } from '../modules/schedules/schedules.service';
import { createGuardsService } from '../modules/guards/guards.service';
import { createRolesService } from '../modules/roles/roles.service';
import { createScope } from '../modules/scope/scope.service';
import { createSegmentsService, segmentKeysOf } from '../modules/segments/segments.service';
import { createSignupService } from '../modules/signup/signup.service';
import { createOidcClient } from '../modules/sso/oidc-client';
import { createPasswordSignInRule } from '../modules/sso/password-rule';
import { createSsoService } from '../modules/sso/sso.service';
import { createSubscriptionsService } from '../modules/subscriptions/subscriptions.service';
import { createTargetUsersService } from '../modules/target-users/target-users.service';
import { createTargetsService } from '../modules/targets/targets.service';
import { createTeamService } from '../modules/team/team.service';
import { createTokensService } from '../modules/tokens/tokens.service';

/** What building the services takes from the application's options. */
export type ServiceOptions = {
  config: Config;
  database: DatabaseHandle;
  now?: () => Date;
  /** Tests stand a provider of their own in for the one BILLING_PROVIDER names. */
  billingProvider?: BillingProvider;
  /** Tests shorten the integrations' retry waits and worker polling. */
  integrations?: IntegrationsOptions;
  /** Tests shorten the e-mails' retry waits. */
  mail?: MailOptions;
};

export type AppServices = ReturnType<typeof createServices>;

/**
 * The composition root (docs/adr/0019-modules-own-their-tables.md): every service built once, each
 * from the ones built before it, so the dependencies form a tree. Where a module needs a fact of one
 * built after it, it declares a port and this function fills it with a standalone reader or writer of
 * the owning module: the password sign-in rule (sso) for auth, the rule context (targets, segments)
 * for controls, the goals (experiments) and the issue tracker (integrations) for features, the
 * features' issue links for the issue tracker. No service is reached through a closure over a later
 * one.
 */
export function createServices(
  options: ServiceOptions,
  onListenerError: (error: unknown) => void,
  logger: MembersLogger,
) {
  const { config, database } = options;
  const db = database.db;
  const clock = options.now ? { now: options.now } : {};
  const { uiFlags, publicUrl, baseDomain } = config;
  const events = createChangeEvents(onListenerError);

  // The bottom: tables every other module reads, and the audit log all of them write.
  const subscriptions = createSubscriptionsService({ db });
  const billing = createBillingService({
    subscriptions,
    uiFlags,
    catalogue: config.billing.catalogue,
    trialDays: config.billing.trialDays,
    ...clock,
  });
  const team = createTeamService({ db });
  const organisations = createOrganisationsService();
  const audit = createAuditService({ db, plan: billing, members: team, ...clock });
  const scope = createScope();
  const impressions = createImpressionsService({ db, ...clock });
  // The durable queue (docs/adr/0023-durable-queue.md); changes write the integrations' jobs to it.
  const queue = createQueue({ db, logger, ...clock });
  const outbox = integrationsOutbox(queue.enqueue, uiFlags.integrations);

  // Sessions, with single sign-on's rule for who may still use a password.
  const auth = createAuthService({
    db,
    events,
    hashCost: config.passwordHashCost,
    passwordSignInRule: createPasswordSignInRule({ db }),
    audit,
    ...clock,
  });
  // Open dashboards are checked against the sessions again when access changes (modules/live).
  const live = createLiveHub({
    events,
    check: (ids) => auth.liveSessions(ids),
    onCheckError: (error) => logger.warn({ err: error }, 'Open dashboards could not be checked again'),
  });

  const billingProvider = options.billingProvider ?? createBillingProvider(config.billing);
  const billingAccount = createBillingAccountService({
    db,
    audit,
    billing,
    subscriptions,
    provider: billingProvider,
    catalogue: config.billing.catalogue,
    uiFlags,
    publicUrl,
    baseDomain,
    logger,
    ...clock,
  });
  const billingPlan = createBillingPlanService({
    db,
    billing,
    catalogue: config.billing.catalogue,
    uiFlags,
    salesContact: config.billing.salesContact,
    provider: billingProvider.kind,
  });

  // Targeting: rules are checked against the project's target types and the environment's segment keys.
  const targets = createTargetsService({ db, audit, billing, scope, ...clock });
  // Versions sit under every module whose resources keep a history (docs/adr/0022-versions.md).
  const versions = createVersionsService();
  const controls = createControlsService({
    db,
    audit,
    billing,
    events,
    impressions,
    scope,
    versions,
    outbox,
    protection: createEnvironmentProtection(),
    ruleContext: async (executor, organisationId, where) => ({
      targetTypes: await targets.typesOf(executor, organisationId, where.projectId),
      segmentKeys: await segmentKeysOf(executor, organisationId, where.environmentId),
    }),
    ...clock,
  });
  const segments = createSegmentsService({
    db,
    audit,
    billing,
    scope,
    controls,
    versions,
    protection: createEnvironmentProtection(),
    ...clock,
  });
  const environments = createEnvironmentsService({
    db,
    audit,
    billing,
    controls,
    events,
    scope,
    versions,
    ...clock,
  });
  const experiments = createExperimentsService({ db, audit, billing, scope, events, outbox, ...clock });
  const targetUsers = createTargetUsersService({ db, audit, scope });

  // The outgoing requests of single sign-on and the integrations, and the e-mails, which go through
  // the queue sealed with the secret box (docs/adr/0023-durable-queue.md).
  const secrets = createSecretBox({
    key: config.secretsKey,
    keyFile: path.join(config.dataDir, 'secrets.key'),
    previousKey: config.integrations.secretsKeyPrevious,
  });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom });
  const mail = createMailQueue({ db, queue, mailer, secrets, logger, options: options.mail, ...clock });

  const outgoingPolicy = {
    allowPrivate: config.outgoingAllowPrivate,
    allowedHosts: config.integrations.outgoingAllowedHosts,
  };
  const outgoingFetch = createOutgoingFetch(outgoingPolicy);
  const integrations = createIntegrationsModule({
    db,
    audit,
    scope,
    team,
    organisations,
    issueLinks: issueLinkWriter,
    queue,
    secrets,
    fetch: outgoingFetch,
    policy: outgoingPolicy,
    uiFlags,
    slack: {
      app: config.integrations.slack,
      apiUrl: config.integrations.slackApiUrl,
      oauthUrl: config.integrations.slackOAuthUrl,
    },
    publicUrl,
    baseDomain,
    logger,
    options: options.integrations,
    ...clock,
  });

  // Features, over controls, with the issue tracker and the goals as ports; projects archive them.
  const featureReads = createFeatureReadModel({ db, scope, controls, team, issues: integrations.jira });
  const features = createFeaturesService({
    db,
    audit,
    billing,
    controls,
    scope,
    team,
    versions,
    events,
    outbox,
    read: featureReads,
    issues: integrations.jira,
    goals: { ensureGoals },
    protection: createProjectProtection(),
    ...clock,
  });
  // Change requests over controls, features and segments (docs/adr/0024-change-requests.md), telling reviewers and authors
  // by e-mail and the integrations through the outbox; their rule protects environments (above).
  const memberGrants = createMemberGrants({ enabled: uiFlags['roles-admin'] });
  const memberFacts = async (executor: Executor, organisationId: string) => {
    const grants = await memberGrants(executor, organisationId);
    return (await team.activeMembers(executor, organisationId)).map((member) => ({
      ...member,
      grants: grants.get(member.id) ?? [],
    }));
  };
  const changeRequests = createChangeRequestsService({
    // Made below: its steps apply change requests, and a request may make a schedule.
    schedules: () => schedules.forChangeRequests,
    db,
    audit,
    scope,
    controls,
    features,
    segments,
    versions,
    events,
    notices: createChangeRequestNotices({
      outbox,
      mail,
      members: memberFacts,
      publicUrl,
      baseDomain,
    }),
  });
  const approvalSettings = createApprovalSettingsService({ db, audit, scope });
  // Schedules over controls and change requests (docs/adr/0025-scheduler.md), woken by the queue;
  // they act for their author, with the author's rights at each step.
  const scheduleMember: SchedulePorts['member'] = async (executor, organisationId, userId) => {
    const member = (await memberFacts(executor, organisationId)).find((one) => one.id === userId);
    const organisation = member ? await organisations.find(executor, organisationId) : null;
    return member && organisation ? { ...member, organisationDomain: organisation.domain } : null;
  };
  const schedules = createSchedulesService({
    db,
    scope,
    queue,
    events,
    controls: controls.forSchedules,
    versions,
    impressions,
    requests: changeRequests.forSchedules,
    member: scheduleMember,
    isProtected: isEnvironmentProtected,
    protection: createEnvironmentProtection(),
    notices: createScheduleNotices({ mail, member: scheduleMember, publicUrl, baseDomain }),
    ...clock,
  });
  // Guards stop ramps (docs/adr/0026-guarded-rollouts.md): alert URLs, through the schedules' port.
  const guards = createGuardsService({ db, schedules: () => schedules.forGuards, publicUrl, ...clock });
  const sdkRegistration = createSdkRegistration({
    db,
    audit,
    billing,
    controls,
    scope,
    events,
    versions,
    team,
    isProtected: isEnvironmentProtected,
    ...clock,
  });
  const projects = createProjectsService({ db, audit, billing, environments, features, events, ...clock });

  // Members sit above features: a removed member's features let go of them, each with a version.
  const members = createMembersService({
    db,
    audit,
    auth,
    billing,
    mail,
    publicUrl,
    releaseMaintainer: createMaintainerRelease({ team, versions, ...clock }),
    ...clock,
  });
  const sso = createSsoService({
    db,
    audit,
    auth,
    members,
    secrets,
    oidc: createOidcClient({ fetch: outgoingFetch, allowHttp: config.outgoingAllowPrivate, ...clock }),
    publicUrl,
    baseDomain,
    allowHttpIssuer: config.outgoingAllowPrivate,
    logger,
    ...clock,
  });

  // The top: the signed-in account, the signed-out flows, tokens and roles.
  const account = createAccountService({ db, auth, uiFlags, billing, projects, members, sso, baseDomain });
  const tokens = createTokensService({ db, audit, enabled: uiFlags['access-tokens'], ...clock });
  const signup = createSignupService({
    db,
    audit,
    auth,
    billing,
    projects,
    organisations,
    members,
    queue,
    mail,
    publicUrl,
    hashCost: config.passwordHashCost,
    ...clock,
  });
  const roles = createRolesService({ db, audit, enabled: uiFlags['roles-admin'], ...clock });
  return {
    events,
    queue,
    live,
    auth,
    billing,
    billingAccount,
    billingPlan,
    account,
    audit,
    scope,
    team,
    organisations,
    impressions,
    targets,
    segments,
    experiments,
    controls,
    changeRequests,
    approvalSettings,
    schedules,
    guards,
    environments,
    projects,
    featureReads,
    features,
    sdkRegistration,
    targetUsers,
    mailer,
    mail,
    members,
    tokens,
    roles,
    signup,
    secrets,
    outgoingFetch,
    sso,
    integrations,
  };
}
