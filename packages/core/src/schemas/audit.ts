import { z } from 'zod';
import { dateTimeSchema, featureKeySchema, idSchema, pageOf, projectKeySchema } from './common';

/** Audit log page size (docs/product.md §9). */
export const AUDIT_PAGE_SIZE = 50;

/** What an audited write did. */
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'archive', 'restore', 'login', 'other'] as const;
/** One of {@link AUDIT_ACTIONS}. */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One audit log entry; `description` is markdown. */
export const auditItemSchema = z.object({
  id: idSchema,
  title: z.string(),
  description: z.string(),
  createdDate: dateTimeSchema,
  /**
   * The version the change created, for the entries of versioned resources: a feature's settings
   * (`environmentKey` null) or its control in one environment. Absent for the others and for changes
   * made before versions were kept.
   */
  version: z
    .object({
      number: z.number().int().min(1),
      projectKey: z.string(),
      featureKey: z.string(),
      environmentKey: z.string().nullable(),
    })
    .optional(),
});
/** Type of {@link auditItemSchema}. */
export type AuditItem = z.infer<typeof auditItemSchema>;

/** Response of GET /api/v1/audit-items. */
export const auditPageSchema = pageOf(auditItemSchema);
/** Type of {@link auditPageSchema}. */
export type AuditPage = z.infer<typeof auditPageSchema>;

/**
 * Query of GET /api/v1/audit-items: optional scope (one resource, a project, a feature of it), who
 * made the change (`actorId`) and what it did (`action`); page from 0, page size 50.
 */
export const auditQuery = z.object({
  resourceId: idSchema.optional(),
  projectKey: projectKeySchema.optional(),
  featureKey: featureKeySchema.optional(),
  actorId: idSchema.optional(),
  action: z.enum(AUDIT_ACTIONS, { error: `Action must be one of ${AUDIT_ACTIONS.join(', ')}.` }).optional(),
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
  pageSize: z.coerce.number().int().min(1).max(AUDIT_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
});
/** Type of {@link auditQuery}. */
export type AuditQuery = z.infer<typeof auditQuery>;
