import type { LiveChange } from '@vexil/core';
import type { Executor } from '../db/client';

/**
 * Passes a change on durably (docs/adr/0023-durable-queue.md): called by the service that makes the
 * change, inside its transaction, so that what the change triggers (outgoing webhooks, chat posts)
 * is written with it or not at all. The composition root fills it with the integrations' writer,
 * which adds a job to the queue for the changes integrations are told of and ignores the others.
 */
export type ChangeOutbox = (executor: Executor, organisationId: string, change: LiveChange) => Promise<void>;

/** The outbox of an application without integrations: nothing is passed on. */
export const noChangeOutbox: ChangeOutbox = async () => {};
