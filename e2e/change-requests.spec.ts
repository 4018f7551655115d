import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Environment, Rule } from '@vexil/core';
import { call, DESKTOP, PHONE } from './support/api';
import { launchBrowser, openPage, signIn, viewShot } from './support/browser';
import { addDemoUser, startServer, type RunningServer } from './support/server';

/*
 * Change requests end to end (docs/adr/0024-change-requests.md), two members in two browsers: the
 * demo admin protects Production; a production editor drafts a targeting change there and submits
 * it; the admin previews it for a user and asks for changes; the author edits it (the approval round
 * starts again); the admin approves; the author applies it and the SDK payload follows. A server of
 * its own, for the second member.
 */

const PROJECT = 'sp';
const FEATURE = 'cr-demo';
const AUTHOR = 'author@example.com';
const TARGETING = `/projects/${PROJECT}/environments/production/features/${FEATURE}/targeting`;
const REQUESTS = `/projects/${PROJECT}/environments/production/change-requests`;

let browser: Browser;
let server: RunningServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([
    launchBrowser(),
    startServer({}, { prepare: (db) => addDemoUser(db, AUTHOR, 'ROLE_ORGANISATION_PROD_EDITOR') }),
  ]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

/** What the production SDK payload serves for the feature. */
async function served(page: Page, apiKey: string): Promise<{ enabled: boolean; rules: Rule[] }> {
  const response = await page.request.get(`${server.url}/api/sdk/v1/features`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Record<string, { enabled: boolean; rules: Rule[] }>)[FEATURE]!;
}

async function choose(page: Page, field: Locator, option: string | RegExp): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Previews the request for one user and answers what the table says for the feature. */
async function preview(page: Page, userId: string, email: string): Promise<string> {
  await page.getByLabel('User id', { exact: true }).fill(userId);
  await page.getByRole('button', { name: 'Add attribute' }).click();
  await page.getByLabel('Attribute 1', { exact: true }).fill('email');
  await page.getByLabel('Value 1', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  const table = page.getByRole('table', { name: 'What the user is served' });
  await table.getByRole('row', { name: /CR demo/ }).waitFor();
  const text = await table.getByRole('row', { name: /CR demo/ }).innerText();
  await page.getByRole('button', { name: /Remove attribute 1/ }).click();
  return text.replace(/\s+/g, ' ');
}

describe('a change request between two members', () => {
  it(
    'is drafted, previewed, sent back, edited, approved and applied, and the SDK payload follows',
    { timeout: 180_000 },
    async () => {
      const admin = await openPage(browser, server.url);
      const author = await openPage(browser, server.url);
      await signIn(admin.page, { at: `/admin/projects/${PROJECT}` });
      await call(admin.page, 'POST', `/api/v1/projects/${PROJECT}/features`, {
        name: 'CR demo',
        key: FEATURE,
      });
      const production = await call<Environment>(
        admin.page,
        'GET',
        `/api/v1/environments/${PROJECT}/production`,
      );

      // The admin asks for change requests in Production.
      await admin.page.goto(`/admin/projects/${PROJECT}`);
      await admin.page.getByRole('button', { name: 'Approval settings of Production' }).click();
      const settings = admin.page.getByRole('dialog', { name: 'Approval settings of Production' });
      await settings.getByRole('switch', { name: 'Require change requests' }).check({ force: true });
      await viewShot(admin.page, 'change-requests-settings', DESKTOP.width);
      await settings.getByRole('button', { name: 'Save approval settings' }).click();
      await settings.waitFor({ state: 'detached' });

      // The author turns the targeting on in Production: it goes into a change request, not live.
      await signIn(author.page, { email: AUTHOR, at: TARGETING });
      await author.page
        .getByRole('status', { name: 'Changes to Production go through change requests.' })
        .waitFor();
      await author.page.getByRole('switch', { name: 'Targeting enabled' }).check({ force: true });
      await author.page.getByRole('button', { name: 'Add to change request' }).click();
      await author.page.getByRole('link', { name: 'Open the change request' }).click();
      await author.page.getByRole('heading', { name: 'Change CR demo in Production' }).waitFor();
      expect((await served(author.page, production.apiKey!)).enabled).toBe(false);
      await author.page.getByRole('button', { name: 'Submit for review' }).click();
      await author.page.getByText('Submitted for review.').waitFor();

      // The admin finds it waiting, previews it for a user, and asks for changes.
      await admin.page.goto(`/projects/${PROJECT}/environments/production/features`);
      // The bar, counting it on its Change requests icon, still fits from 1200 px.
      const viewport = admin.page.viewportSize()!;
      await admin.page.setViewportSize({ width: 1200, height: viewport.height });
      const waiting = admin.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: '1 change request waits for your review' });
      await waiting.waitFor();
      expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBe(1200);
      await admin.page.setViewportSize(viewport);
      await waiting.click();
      await admin.page.getByRole('link', { name: 'Change CR demo in Production' }).click();
      await admin.page.getByRole('heading', { name: 'Change CR demo in Production' }).waitFor();
      expect(await preview(admin.page, 'alice', 'alice@example.com')).toMatch(/CR demo Off On/);
      await admin.page.getByRole('button', { name: 'Request changes' }).click();
      const ask = admin.page.getByRole('dialog', { name: 'Request changes' });
      await ask.getByLabel('What should change?').fill('Only our own addresses first, please.');
      await ask.getByRole('button', { name: 'Request changes' }).click();
      await admin.page.getByText('Changes requested.').waitFor();

      // The author edits: only @example.com addresses get it, everyone else stays off.
      await author.page.goto(TARGETING);
      await author.page.getByRole('switch', { name: 'Targeting enabled' }).check({ force: true });
      await author.page.getByRole('button', { name: 'Add rule' }).click();
      const rule = author.page.getByRole('group', { name: 'Rule 1', exact: true });
      const condition = rule.getByRole('group', { name: 'Condition 1' });
      const picker = condition.getByRole('combobox', { name: 'Target' });
      await picker.click();
      await picker.fill('Email');
      await author.page.getByRole('option', { name: 'Create a new target…' }).click();
      const newTarget = author.page.getByRole('dialog', { name: 'New target' });
      await newTarget.getByRole('button', { name: 'Create target' }).click();
      await newTarget.waitFor({ state: 'detached' });
      await choose(author.page, condition.getByRole('combobox', { name: 'Operator' }), 'ends with');
      await condition.getByLabel('Value', { exact: true }).fill('@example.com');
      await choose(
        author.page,
        author.page.getByRole('group', { name: 'Rule 1: serve' }).getByRole('combobox', { name: 'Variant' }),
        'On',
      );
      const everyoneElse = author.page.getByRole('group', { name: 'Everyone else: serve' });
      await choose(author.page, everyoneElse.getByRole('combobox', { name: 'Variant' }), 'Off');
      await author.page.getByRole('button', { name: 'Add to change request' }).click();
      await author.page.getByRole('link', { name: 'Open the change request' }).click();
      const changes = author.page.getByRole('list', { name: 'Changes', exact: true });
      await expect.poll(() => changes.innerText()).toContain('@example.com');
      // Its approval round starts again: the request for changes is answered, and it waits for review.
      const id = new URL(author.page.url()).pathname.split('/').at(-1)!;
      const edited = await call<{ state: string; round: number; changesRequestedBy: string[] }>(
        author.page,
        'GET',
        `/api/v1/projects/${PROJECT}/change-requests/${id}`,
      );
      expect(edited).toMatchObject({ state: 'in-review', round: 1, changesRequestedBy: [] });
      await viewShot(author.page, 'change-request-author', DESKTOP.width);

      // The admin checks it again and approves.
      await admin.page.reload();
      expect(await preview(admin.page, 'alice', 'alice@example.com')).toMatch(/CR demo Off On/);
      expect(await preview(admin.page, 'bob', 'bob@elsewhere.org')).toMatch(/CR demo Off Off/);
      await admin.page.getByRole('button', { name: 'Approve' }).click();
      await admin.page.getByText('Approved: the change request can be applied.').waitFor();
      await viewShot(admin.page, 'change-request-approved', DESKTOP.width);

      // The author applies it; the SDKs get it.
      await author.page.reload();
      await author.page.getByRole('button', { name: 'Apply' }).click();
      await author.page.getByText('Change request applied.').waitFor();
      // The closed request still says what it changed.
      await expect
        .poll(() => author.page.getByRole('list', { name: 'Changes', exact: true }).innerText())
        .toContain('Rule 1 added: email ends with @example.com → On');
      await expect.poll(async () => (await served(author.page, production.apiKey!)).enabled).toBe(true);
      const live = await served(author.page, production.apiKey!);
      expect(JSON.stringify(live.rules)).toContain('@example.com');
      await viewShot(author.page, 'change-request-phone', PHONE.width);
      await author.page.emulateMedia({ colorScheme: 'dark' });
      await viewShot(author.page, 'change-request-dark', DESKTOP.width);
      await admin.page.goto(REQUESTS);
      await admin.page.getByRole('link', { name: 'Change CR demo in Production' }).waitFor();
      await viewShot(admin.page, 'change-requests-list', DESKTOP.width);
      await admin.page.emulateMedia({ colorScheme: 'dark' });
      await viewShot(admin.page, 'change-requests-list-phone-dark', PHONE.width);
      await Promise.all([admin.context.close(), author.context.close()]);
    },
  );

  it('puts a segment renamed in Production into a change request, and nothing goes live', async () => {
    const { context, page } = await openPage(browser, server.url);
    await signIn(page, { at: `/projects/${PROJECT}/environments/production/segments` });
    await call(page, 'PUT', `/api/v1/projects/${PROJECT}/environments/production/approval-settings`, {
      required: true,
      minApprovals: 1,
      allowSelfApproval: false,
      resetApprovalsOnChange: true,
      autoApply: false,
    });
    await call(page, 'POST', '/api/v2/segments', {
      projectKey: PROJECT,
      environmentKey: 'production',
      key: 'beta-testers',
      name: 'Beta testers',
    });
    await page.reload();
    await page.getByRole('button', { name: 'Edit Beta testers' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Segment' });
    const name = dialog.getByRole('textbox', { name: /^Name/ });
    await name.fill('Beta users');
    await dialog.getByRole('button', { name: 'Add to change request' }).click();
    await page.getByRole('link', { name: 'Open the change request' }).click();
    const changes = page.getByRole('list', { name: 'Changes', exact: true });
    await expect.poll(() => changes.innerText()).toContain('Beta users');
    const live = await call<{ name: string }[]>(page, 'GET', `/api/v2/segments/${PROJECT}/production`);
    expect(live.map((segment) => segment.name)).toContain('Beta testers');
    await context.close();
  });

  it('suspends a request whose rules someone changed meanwhile, and its author keeps theirs', async () => {
    const admin = await openPage(browser, server.url);
    const author = await openPage(browser, server.url);
    await signIn(admin.page, { at: `/projects/${PROJECT}/environments/production/features` });
    await call(admin.page, 'POST', `/api/v1/projects/${PROJECT}/features`, { name: 'Clash', key: 'clash' });
    const settings = `/api/v1/projects/${PROJECT}/environments/production/approval-settings`;
    const protection = (required: boolean) => ({
      required,
      minApprovals: 1,
      allowSelfApproval: false,
      resetApprovalsOnChange: true,
      autoApply: false,
    });
    await call(admin.page, 'PUT', settings, protection(true));
    const control = async () =>
      (
        await call<{ controls: Record<string, { id: string; rules: Rule[] }> }>(
          admin.page,
          'GET',
          `/api/v1/projects/${PROJECT}/features/clash`,
        )
      ).controls['production']!;
    const only = (id: string): Rule[] => [
      {
        defaultRule: false,
        audience: { conditions: [{ target: 'featureflow.user.id', operator: 'in', values: [id] }] },
        variantSplits: [{ variantKey: 'on', split: 100 }],
      },
      { defaultRule: true, audience: null, variantSplits: [{ variantKey: 'off', split: 100 }] },
    ];
    // The author's request gives it to alice; the admin approves it.
    await signIn(author.page, { email: AUTHOR, at: REQUESTS });
    const requests = `/api/v1/projects/${PROJECT}/change-requests`;
    const draft = await call<{ id: string }>(author.page, 'POST', requests, {
      environmentKey: 'production',
      title: 'Alice first',
    });
    const { id } = await control();
    await call(author.page, 'POST', `${requests}/${draft.id}/changes`, {
      kind: 'control',
      id,
      enabled: true,
      offVariantKey: 'off',
      rules: only('alice'),
    });
    await call(author.page, 'POST', `${requests}/${draft.id}/submit`);
    await call(admin.page, 'POST', `${requests}/${draft.id}/reviews`, { decision: 'approve' });
    // Meanwhile the admin gives it to bob directly, with the protection lifted for one write.
    await call(admin.page, 'PUT', settings, protection(false));
    await call(admin.page, 'PUT', '/api/v1/feature-controls', {
      id,
      enabled: false,
      offVariantKey: 'off',
      rules: only('bob'),
    });
    await call(admin.page, 'PUT', settings, protection(true));

    await author.page.goto(`${REQUESTS}/${draft.id}`);
    await author.page.getByRole('button', { name: 'Apply' }).click();
    await author.page
      .getByText(/Clash: Rules changed by admin@example.com/)
      .first()
      .waitFor();
    await author.page.getByRole('radiogroup', { name: 'Rules' }).getByLabel('Keep mine').check();
    await viewShot(author.page, 'change-request-conflict', DESKTOP.width);
    await author.page.getByRole('button', { name: 'Bring up to date' }).click();
    await author.page.getByText('Brought up to date: the request is back in review.').waitFor();
    const rebased = await call<{
      state: string;
      changes: { conflicts: unknown[]; merged: { rules: Rule[] } }[];
    }>(author.page, 'GET', `${requests}/${draft.id}`);
    expect(rebased.state).toBe('in-review');
    expect(rebased.changes[0]!.conflicts).toEqual([]);
    expect(JSON.stringify(rebased.changes[0]!.merged.rules)).toContain('alice');
    await author.page.emulateMedia({ colorScheme: 'dark' });
    await viewShot(author.page, 'change-request-conflict-phone-dark', PHONE.width);
    await Promise.all([admin.context.close(), author.context.close()]);
  });
});
