import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { AUTHORITIES } from '@vexil/core';
import { jsonResponse } from '../../../testing/test-utils';
import {
  PRODUCTION,
  renderSegmentsPage,
  resetOverlays,
  segmentFixture,
  serveSegments,
  userWith,
} from '../../../testing/segments-test-server';

const betaTesters = segmentFixture('Beta testers', { description: 'People who opted in to previews' });
const staff = segmentFixture('Staff', { key: 'staff' });

describe('Segments page permissions', () => {
  afterEach(() => {
    resetOverlays();
    vi.unstubAllGlobals();
  });

  it('hides New Segment from a read-only user and disables Edit and Delete with the reason', async () => {
    serveSegments({ segments: [betaTesters] });
    const { user } = renderSegmentsPage({ user: userWith(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER) });

    await screen.findByText('Beta testers');
    expect(screen.queryByRole('button', { name: 'New Segment' })).toBeNull();
    const edit = screen.getByRole('button', { name: 'Edit Beta testers' });
    expect((edit as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Delete Beta testers' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.hover(edit.parentElement!);
    expect(
      await screen.findByRole('tooltip', { name: 'You do not have permission to update segments.' }),
    ).toBeVisible();
  });

  it('shows the empty text without New Segment to a read-only user', async () => {
    serveSegments();
    renderSegmentsPage({ user: userWith(AUTHORITIES.ROLE_ORGANISATION_READONLY_USER) });

    expect(await screen.findByText('Segments allow you to create defined user cohorts.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'New Segment' })).toBeNull();
  });

  it('hides New Segment in production from a non-production editor', async () => {
    serveSegments({ handlers: { 'GET /api/v2/segments/web/production': () => jsonResponse(200, [staff]) } });
    const { user } = renderSegmentsPage({
      environment: PRODUCTION,
      user: userWith(AUTHORITIES.ROLE_ORGANISATION_EDITOR),
    });

    expect(await screen.findByText('Segments for Web shop / Production environment')).toBeVisible();
    await screen.findByText('Staff');
    expect(screen.queryByRole('button', { name: 'New Segment' })).toBeNull();
    const remove = screen.getByRole('button', { name: 'Delete Staff' });
    expect((remove as HTMLButtonElement).disabled).toBe(true);
    await user.hover(remove.parentElement!);
    expect(
      await screen.findByRole('tooltip', {
        name: 'Only a production editor can delete segments in a production environment.',
      }),
    ).toBeVisible();
  });

  it('treats an environment tagged production as production', async () => {
    serveSegments({ handlers: { 'GET /api/v2/segments/web/live': () => jsonResponse(200, []) } });
    renderSegmentsPage({
      environment: { key: 'live', name: 'Live', production: false, tags: ['Production'] },
      user: userWith(AUTHORITIES.ROLE_ORGANISATION_EDITOR),
    });

    await screen.findByText('Segments allow you to create defined user cohorts.');
    expect(screen.queryByRole('button', { name: 'New Segment' })).toBeNull();
  });

  it('offers New Segment, Edit and Delete in production to a production editor and the editor elsewhere', async () => {
    serveSegments({ handlers: { 'GET /api/v2/segments/web/production': () => jsonResponse(200, [staff]) } });
    const first = renderSegmentsPage({
      environment: PRODUCTION,
      user: userWith(AUTHORITIES.ROLE_ORGANISATION_PROD_EDITOR),
    });
    await screen.findByText('Staff');
    expect(screen.getByRole('button', { name: 'New Segment' })).toBeVisible();
    expect((screen.getByRole('button', { name: 'Edit Staff' }) as HTMLButtonElement).disabled).toBe(false);
    first.unmount();

    serveSegments({ segments: [staff] });
    renderSegmentsPage({ user: userWith(AUTHORITIES.ROLE_ORGANISATION_EDITOR) });
    await screen.findByText('Staff');
    expect(screen.getByRole('button', { name: 'New Segment' })).toBeVisible();
    expect((screen.getByRole('button', { name: 'Delete Staff' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
