import {
  defaultSortDirection,
  type Feature,
  type FeatureListPage,
  type FeatureListQuery,
  type HomeFeature,
  type HomeFeaturePage,
  type HomeFeaturesQuery,
} from '@vexil/core';
import { readTogether, type Database, type Executor } from '../../db/client';
import { NotFoundError } from '../../errors';
import { groupBy } from '../../lib/collections';
import type { Principal } from '../auth/auth.service';
import type { ControlsService } from '../controls/controls.service';
import type { Scope } from '../scope/scope.service';
import type { TeamService } from '../team/team.service';
import * as linkRepo from './feature-links.repository';
import * as repo from './features.repository';
import type { IssueTracker } from './ports';
import type { FeatureWithProject, ListedFeature } from './features.types';

/** How many features a search returns at most. */
export const FEATURE_SEARCH_LIMIT = 100;
/** How many features a project search (link page, pickers) returns at most. */
export const PROJECT_FEATURE_SEARCH_LIMIT = 50;

export type FeatureReadModel = ReturnType<typeof createFeatureReadModel>;

/** The features of a list, each with when it last changed (`rows` are the same features in order). */
function withLastChanged(content: Feature[], rows: ListedFeature[]): HomeFeature[] {
  return content.map((feature, index) => ({
    ...feature,
    lastChangedDate: rows[index]!.lastChanged.toISOString(),
  }));
}

/**
 * Features as the dashboard reads them: each with its variants, issue links, goals, maintainer,
 * the reader's bookmark and its controls by environment key. Only reads; the writes are in
 * features.service.ts.
 */
export function createFeatureReadModel(deps: {
  db: Database;
  scope: Scope;
  controls: ControlsService;
  team: TeamService;
  /** The issue tracker's titles and links of issue keys, when one is connected (integrations module). */
  issues?: Pick<IssueTracker, 'describeIssues'>;
}) {
  const { db, scope, controls, team } = deps;

  async function toFeatures(
    executor: Executor,
    principal: Principal,
    rows: FeatureWithProject[],
    environmentIds?: string[],
    at?: Date,
  ): Promise<Feature[]> {
    const organisationId = principal.organisationId;
    const ids = rows.map((r) => r.feature.id);
    const [variantRows, links, goalRows, maintainers, bookmarked] = await readTogether(executor, [
      () => repo.variantsOf(executor, organisationId, ids),
      () => linkRepo.issueLinksOf(executor, organisationId, ids),
      () => linkRepo.goalKeysOf(executor, organisationId, ids),
      () =>
        team.summariesOf(
          executor,
          organisationId,
          rows.flatMap((r) => (r.feature.maintainerId ? [r.feature.maintainerId] : [])),
        ),
      () => linkRepo.bookmarkedIds(executor, principal.userId, ids),
    ]);
    const variantsByFeature = groupBy(variantRows, (v) => v.featureId);
    const controlViews = await controls.viewsOf(
      executor,
      organisationId,
      rows.map(({ feature }) => ({
        id: feature.id,
        key: feature.key,
        variantNames: Object.fromEntries(
          (variantsByFeature.get(feature.id) ?? []).map((v) => [v.key, v.name]),
        ),
      })),
      environmentIds,
      at,
    );
    const described = await deps.issues?.describeIssues(
      executor,
      organisationId,
      links.map((l) => l.key),
    );
    const linksByFeature = groupBy(links, (l) => l.featureId);
    const goalsByFeature = groupBy(goalRows, (g) => g.featureId);
    return rows.map(({ feature, project }) => {
      const issues = linksByFeature.get(feature.id) ?? [];
      return {
        id: feature.id,
        name: feature.name,
        key: feature.key,
        description: feature.description,
        permanent: feature.permanent,
        variants: (variantsByFeature.get(feature.id) ?? []).map((v) => ({
          key: v.key,
          name: v.name,
          description: v.description,
          ...(v.value === null ? {} : { value: v.value }),
        })),
        tags: feature.tags,
        goals: (goalsByFeature.get(feature.id) ?? []).map((g) => g.key),
        jiraIssues: issues.map((i) => {
          const known = described?.get(i.key);
          return { key: i.key, title: known?.title || i.title, url: known?.url || i.url || '' };
        }),
        jiraIssueKeys: issues.map((i) => i.key),
        maintainer: (feature.maintainerId && maintainers.get(feature.maintainerId)) || null,
        projectKey: project.key,
        project: { key: project.key, name: project.name },
        bookmarked: bookmarked.has(feature.id),
        archived: feature.archived,
        controls: controlViews.get(feature.id) ?? {},
        createdDate: feature.createdAt.toISOString(),
        lastModifiedDate: feature.updatedAt.toISOString(),
      };
    });
  }

  /** One feature as the API shows it, read with `executor` (inside a write's transaction). */
  async function one(executor: Executor, principal: Principal, row: FeatureWithProject): Promise<Feature> {
    const [feature] = await toFeatures(executor, principal, [row]);
    return feature!;
  }

  return {
    one,

    /** GET /api/v1/features?filter=: features across the organisation matching the text. */
    async search(principal: Principal, text: string | undefined): Promise<Feature[]> {
      const rows = await repo.search(
        db,
        principal.organisationId,
        text?.trim() || undefined,
        FEATURE_SEARCH_LIMIT,
      );
      return toFeatures(db, principal, rows);
    },

    /**
     * One page of a home list (docs/product.md §2): recent, bookmarked or maintaining, filtered by the
     * "Filter Features..." text and sorted by a column (last change, newest first, by default).
     */
    async home(principal: Principal, query: HomeFeaturesQuery): Promise<HomeFeaturePage> {
      const { rows, total } = await repo.homeList(db, principal.organisationId, principal.userId, {
        list: query.list,
        text: query.query?.trim() || undefined,
        sortBy: query.sortBy,
        direction: query.sortDirection ?? defaultSortDirection(query.sortBy),
        offset: query.page * query.pageSize,
        limit: query.pageSize,
      });
      return {
        content: withLastChanged(await toFeatures(db, principal, rows), rows),
        last: (query.page + 1) * query.pageSize >= total,
        page: query.page,
        pageSize: query.pageSize,
        totalElements: total,
      };
    },

    /** Features of one project matching typed text (link page, pickers). */
    async searchInProject(
      principal: Principal,
      projectKey: string,
      text: string | undefined,
    ): Promise<Feature[]> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      const rows = await repo.searchInProject(
        db,
        principal.organisationId,
        project.id,
        text?.trim() || undefined,
        PROJECT_FEATURE_SEARCH_LIMIT,
      );
      return toFeatures(db, principal, rows);
    },

    /**
     * One page of an environment's feature list (docs/product.md §2 "Feature list"): searched, filtered
     * by tags and by the control's state and statuses in this environment, and sorted (name by
     * default); each feature with that environment's control only and when it last changed. The
     * filters and the statuses shown are read at one instant, so a row always shows what it was
     * filtered by.
     */
    async page(
      principal: Principal,
      projectKey: string,
      environmentKey: string,
      query: FeatureListQuery,
    ): Promise<FeatureListPage> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      const environment = await scope.environment(db, principal.organisationId, projectKey, environmentKey);
      const at = controls.now();
      const { rows, total } = await repo.page(db, principal.organisationId, project.id, {
        environmentId: environment.id,
        text: query.query?.trim() || undefined,
        tags: query.tag,
        control: controls.listCondition(query, at),
        sortBy: query.sortBy,
        direction: query.sortDirection ?? defaultSortDirection(query.sortBy),
        offset: query.page * query.pageSize,
        limit: query.pageSize,
      });
      return {
        content: withLastChanged(await toFeatures(db, principal, rows, [environment.id], at), rows),
        last: (query.page + 1) * query.pageSize >= total,
        page: query.page,
        pageSize: query.pageSize,
        totalElements: total,
      };
    },

    /** A feature by project and key, with its control in every environment. */
    async get(principal: Principal, projectKey: string, featureKey: string): Promise<Feature> {
      const row = await repo.findByKey(db, principal.organisationId, projectKey, featureKey);
      if (!row) throw new NotFoundError('feature', `${projectKey}/${featureKey}`);
      return one(db, principal, row);
    },

    /** GET /api/v1/projects/{projectKey}/tags?query= */
    async tags(principal: Principal, projectKey: string, text: string | undefined): Promise<string[]> {
      const project = await scope.project(db, principal.organisationId, projectKey);
      return repo.tagsOf(db, principal.organisationId, project.id, text?.trim() || undefined);
    },
  };
}
