import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Feature, InitialPayload } from '@vexil/core';
import { jobs } from '../../db/schema/index';
import { createFeature } from '../../../test/features';
import {
  setUpJiraRoutes,
  jira,
  team,
  fixture,
  clock,
  settled,
  connect,
  requestsTo,
  feature,
  h,
} from './jira.routes.fixture';
import { JIRA_COMMENT_JOB } from './jira-issues';

setUpJiraRoutes();

describe('issue keys', () => {
  it('resolves a key to its title and page, remembered ten minutes, then read again', async () => {
    await connect();
    const res = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/abc-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ key: 'ABC-1', title: 'Checkout redesign', url: `${jira.url}/browse/ABC-1` });
    const reads = requestsTo('GET /rest/api/3/issue/ABC-1');
    jira.issues.set('ABC-1', 'Checkout, redesigned');
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toMatchObject({
      title: 'Checkout redesign',
    });
    expect(requestsTo('GET /rest/api/3/issue/ABC-1')).toBe(reads);

    clock.advance(10 * 60 * 1000 + 1);
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toMatchObject({
      title: 'Checkout, redesigned',
    });
    expect(requestsTo('GET /rest/api/3/issue/ABC-1')).toBe(reads + 1);
  });

  it('degrades to what was last known, else to the bare key, when Jira cannot be reached', async () => {
    await connect();
    await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1');
    jira.down();
    clock.advance(10 * 60 * 1000 + 1);
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1')).json()).toEqual({
      key: 'ABC-1',
      title: 'Checkout redesign',
      url: `${jira.url}/browse/ABC-1`,
    });
    const bare = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-2');
    expect(bare.statusCode).toBe(200);
    expect(bare.json()).toEqual({ key: 'ABC-2', title: '', url: `${jira.url}/browse/ABC-2` });
  });

  it('answers 404 for an issue Jira does not have, and when Jira is not connected', async () => {
    const none = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/ABC-1');
    expect(none.statusCode).toBe(404);
    expect(none.json<{ detail: string }>().detail).toBe('Jira is not connected.');
    await connect();
    const missing = await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/XYZ-9');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ title: string }>().title).toBe(
      'Jira has no issue XYZ-9, or the connected account cannot see it.',
    );
    expect((await team.readOnly.call('GET', '/api/v1/integrations/jira/issues/not a key!')).statusCode).toBe(
      400,
    );
  });
});

describe('features and their issues', () => {
  it('comments on the issue a feature is created from, and shows the issue’s title and link', async () => {
    await connect();
    const created = await createFeature(team.admin.call, 'web', {
      name: 'New checkout',
      key: 'new-checkout',
      jiraIssueKeys: ['ABC-1'],
    });
    expect(created.jiraIssueKeys).toEqual(['ABC-1']);
    // The comment's job was written with the feature: it is on record when the answer arrives.
    const written = await h.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, JIRA_COMMENT_JOB), eq(jobs.organisationId, team.admin.organisationId)));
    expect(written).toHaveLength(1);
    await settled();
    expect(jira.comments).toHaveLength(1);
    const [comment] = jira.comments;
    expect(comment!.issueKey).toBe('ABC-1');
    expect(comment!.body).toEqual({
      type: 'doc',
      version: 1,
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: `${team.admin.email} created the Vexil feature ` },
            {
              type: 'text',
              text: 'New checkout',
              marks: [
                {
                  type: 'link',
                  attrs: {
                    href: `http://${team.admin.domain}.vexil.test/projects/web/features/new-checkout`,
                  },
                },
              ],
            },
            { type: 'text', text: ' (new-checkout) in the project Web shop from this issue.' },
          ],
        },
      ],
    });
    expect((await feature('new-checkout')).jiraIssues).toEqual([
      { key: 'ABC-1', title: 'Checkout redesign', url: `${jira.url}/browse/ABC-1` },
    ]);
  });

  it('comments when an issue is linked (once), retrying when Jira fails for a while', async () => {
    await connect();
    jira.failNext(500, 503);
    const link = () =>
      team.admin.call('PUT', '/api/v1/features/link', {
        featureId: fixture.checkout.id,
        jiraIssueKey: 'abc-2',
      });
    const res = await link();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Feature>().jiraIssueKeys).toEqual(['ABC-2']);
    await settled();
    expect(jira.comments.map((c) => [c.issueKey, JSON.stringify(c.body)])).toEqual([
      ['ABC-2', expect.stringContaining('linked this issue to the Vexil feature ')],
    ]);
    expect((await link()).statusCode).toBe(200);
    await settled();
    expect(jira.comments).toHaveLength(1);
    expect((await feature('checkout')).jiraIssues).toEqual([
      { key: 'ABC-2', title: 'Dark mode', url: `${jira.url}/browse/ABC-2` },
    ]);
  });

  it('never fails the feature’s write when Jira is down; the feature shows the bare key', async () => {
    await connect();
    jira.down();
    const created = await team.admin.call('POST', '/api/v1/projects/web/features', {
      name: 'Offline',
      key: 'offline',
      jiraIssueKeys: ['ABC-1'],
    });
    expect(created.statusCode, created.body).toBe(201);
    await settled();
    expect(jira.comments).toEqual([]);
    expect((await feature('offline')).jiraIssues).toEqual([
      { key: 'ABC-1', title: '', url: `${jira.url}/browse/ABC-1` },
    ]);
  });

  it('refreshes a title in the background once it is ten minutes old', async () => {
    await connect();
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search', jiraIssueKeys: ['ABC-1'] });
    await settled();
    jira.issues.set('ABC-1', 'Search, renamed');
    clock.advance(10 * 60 * 1000 + 1);
    // This read shows what is known and asks Jira again after the answer.
    expect((await feature('search')).jiraIssues[0]!.title).toBe('Checkout redesign');
    await settled();
    expect((await feature('search')).jiraIssues[0]!.title).toBe('Search, renamed');
  });

  it('forgets the titles and links when Jira is removed, and says Jira is off in the initial payload', async () => {
    const connection = await connect();
    await createFeature(team.admin.call, 'web', { name: 'Search', key: 'search', jiraIssueKeys: ['ABC-1'] });
    await settled();
    expect((await team.admin.call('DELETE', `/api/v1/integrations/${connection.id}`)).statusCode).toBe(204);
    expect((await feature('search')).jiraIssues).toEqual([{ key: 'ABC-1', title: '', url: '' }]);
    const initial = (await team.readOnly.call('GET', '/api/v1/initial')).json<InitialPayload>();
    expect(initial.organisation.settings.jiraEnabled).toBe(false);
    const filters = await team.admin.call('PUT', `/api/v1/integrations/${(await connect()).id}/filters`, {});
    expect(filters.statusCode).toBe(400);
  });
});
