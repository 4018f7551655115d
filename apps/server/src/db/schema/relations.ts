import { relations } from 'drizzle-orm';
import { auditItems } from './audit.ts';
import { prices, products, subscriptions } from './billing.ts';
import { experiments, featureGoals, goals } from './experiments.ts';
import { bookmarks, featureControls, featureIssueLinks, features, variants } from './features.ts';
import { oneTimeTokens, organisations, sessions, users } from './identity.ts';
import { integrations } from './integrations.ts';
import { environments, projects } from './projects.ts';
import { goalCounters, impressionCounters } from './stats.ts';
import { segments, targets, targetUsers, targetValues } from './targeting.ts';
import { invites, roles } from './team.ts';
import { personalAccessTokens } from './tokens.ts';

/*
 * Relations for Drizzle's relational queries (`db.query.features.findFirst({ with: … })`).
 * They add no SQL; the foreign keys live on the tables.
 */

export const organisationsRelations = relations(organisations, ({ many, one }) => ({
  users: many(users),
  projects: many(projects),
  roles: many(roles),
  integrations: many(integrations),
  subscription: one(subscriptions),
}));

export const usersRelations = relations(users, ({ one, many }) => ({
  organisation: one(organisations, { fields: [users.organisationId], references: [organisations.id] }),
  sessions: many(sessions),
  oneTimeTokens: many(oneTimeTokens),
  bookmarks: many(bookmarks),
  personalAccessTokens: many(personalAccessTokens),
  invites: many(invites, { relationName: 'invitee' }),
}));

export const sessionsRelations = relations(sessions, ({ one }) => ({
  user: one(users, { fields: [sessions.userId], references: [users.id] }),
}));

export const oneTimeTokensRelations = relations(oneTimeTokens, ({ one }) => ({
  user: one(users, { fields: [oneTimeTokens.userId], references: [users.id] }),
}));

export const invitesRelations = relations(invites, ({ one }) => ({
  organisation: one(organisations, { fields: [invites.organisationId], references: [organisations.id] }),
  user: one(users, { fields: [invites.userId], references: [users.id], relationName: 'invitee' }),
  invitedBy: one(users, { fields: [invites.invitedById], references: [users.id] }),
}));

export const personalAccessTokensRelations = relations(personalAccessTokens, ({ one }) => ({
  user: one(users, { fields: [personalAccessTokens.userId], references: [users.id] }),
}));

export const projectsRelations = relations(projects, ({ one, many }) => ({
  organisation: one(organisations, { fields: [projects.organisationId], references: [organisations.id] }),
  environments: many(environments),
  features: many(features),
  targets: many(targets),
  targetValues: many(targetValues),
  goals: many(goals),
}));

export const environmentsRelations = relations(environments, ({ one, many }) => ({
  project: one(projects, { fields: [environments.projectId], references: [projects.id] }),
  featureControls: many(featureControls),
  segments: many(segments),
  experiments: many(experiments),
  targetUsers: many(targetUsers),
}));

export const featuresRelations = relations(features, ({ one, many }) => ({
  project: one(projects, { fields: [features.projectId], references: [projects.id] }),
  maintainer: one(users, { fields: [features.maintainerId], references: [users.id] }),
  variants: many(variants),
  controls: many(featureControls),
  issueLinks: many(featureIssueLinks),
  bookmarks: many(bookmarks),
  featureGoals: many(featureGoals),
  experiments: many(experiments),
}));

export const variantsRelations = relations(variants, ({ one }) => ({
  feature: one(features, { fields: [variants.featureId], references: [features.id] }),
}));

export const bookmarksRelations = relations(bookmarks, ({ one }) => ({
  user: one(users, { fields: [bookmarks.userId], references: [users.id] }),
  feature: one(features, { fields: [bookmarks.featureId], references: [features.id] }),
}));

export const featureIssueLinksRelations = relations(featureIssueLinks, ({ one }) => ({
  feature: one(features, { fields: [featureIssueLinks.featureId], references: [features.id] }),
  integration: one(integrations, {
    fields: [featureIssueLinks.integrationId],
    references: [integrations.id],
  }),
}));

export const featureControlsRelations = relations(featureControls, ({ one, many }) => ({
  feature: one(features, { fields: [featureControls.featureId], references: [features.id] }),
  environment: one(environments, { fields: [featureControls.environmentId], references: [environments.id] }),
  impressionCounters: many(impressionCounters),
}));

export const targetsRelations = relations(targets, ({ one }) => ({
  project: one(projects, { fields: [targets.projectId], references: [projects.id] }),
}));

export const targetValuesRelations = relations(targetValues, ({ one }) => ({
  project: one(projects, { fields: [targetValues.projectId], references: [projects.id] }),
}));

export const segmentsRelations = relations(segments, ({ one }) => ({
  environment: one(environments, { fields: [segments.environmentId], references: [environments.id] }),
}));

export const targetUsersRelations = relations(targetUsers, ({ one }) => ({
  environment: one(environments, { fields: [targetUsers.environmentId], references: [environments.id] }),
}));

export const goalsRelations = relations(goals, ({ one, many }) => ({
  project: one(projects, { fields: [goals.projectId], references: [projects.id] }),
  featureGoals: many(featureGoals),
}));

export const featureGoalsRelations = relations(featureGoals, ({ one }) => ({
  feature: one(features, { fields: [featureGoals.featureId], references: [features.id] }),
  goal: one(goals, { fields: [featureGoals.goalId], references: [goals.id] }),
}));

export const experimentsRelations = relations(experiments, ({ one, many }) => ({
  environment: one(environments, { fields: [experiments.environmentId], references: [environments.id] }),
  feature: one(features, { fields: [experiments.featureId], references: [features.id] }),
  goalCounters: many(goalCounters),
}));

export const impressionCountersRelations = relations(impressionCounters, ({ one }) => ({
  featureControl: one(featureControls, {
    fields: [impressionCounters.featureControlId],
    references: [featureControls.id],
  }),
}));

export const goalCountersRelations = relations(goalCounters, ({ one }) => ({
  experiment: one(experiments, { fields: [goalCounters.experimentId], references: [experiments.id] }),
  goal: one(goals, { fields: [goalCounters.goalId], references: [goals.id] }),
}));

export const auditItemsRelations = relations(auditItems, ({ one }) => ({
  actor: one(users, { fields: [auditItems.actorId], references: [users.id] }),
}));

export const rolesRelations = relations(roles, ({ one }) => ({
  organisation: one(organisations, { fields: [roles.organisationId], references: [organisations.id] }),
}));

export const integrationsRelations = relations(integrations, ({ one }) => ({
  member: one(users, { fields: [integrations.memberId], references: [users.id] }),
}));

export const productsRelations = relations(products, ({ many }) => ({
  prices: many(prices),
}));

export const pricesRelations = relations(prices, ({ one }) => ({
  product: one(products, { fields: [prices.productId], references: [products.id] }),
}));

export const subscriptionsRelations = relations(subscriptions, ({ one }) => ({
  organisation: one(organisations, {
    fields: [subscriptions.organisationId],
    references: [organisations.id],
  }),
  price: one(prices, { fields: [subscriptions.priceId], references: [prices.id] }),
}));
