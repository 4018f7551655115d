ALTER TABLE "versions" ADD COLUMN "segment_id" uuid;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_segment_id_segments_id_fk" FOREIGN KEY ("segment_id") REFERENCES "public"."segments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "versions_segment_idx" ON "versions" USING btree ("segment_id");--> statement-breakpoint
-- Every segment that exists when the history of segments begins gets its first version: its key,
-- name and description now, by the system (docs/adr/0022-versions.md, core's segmentSnapshotSchema).
INSERT INTO "versions" ("organisation_id", "resource_type", "resource_id", "environment_id", "segment_id", "number", "source", "changes", "snapshot", "created_at")
SELECT s."organisation_id", 'segment', s."id", s."environment_id", s."id", 1, 'system',
  '["The state when history began."]'::jsonb,
  jsonb_build_object('key', s."key", 'name', s."name", 'description', s."description"),
  s."updated_at"
FROM "segments" s
WHERE NOT EXISTS (
  SELECT 1 FROM "versions" x WHERE x."resource_type" = 'segment' AND x."resource_id" = s."id"
);--> statement-breakpoint
-- Every live environment gets the first version of its settings (core's environmentSnapshotSchema;
-- the url '' when none). Its SDK keys are secrets, not settings, and are not kept.
INSERT INTO "versions" ("organisation_id", "resource_type", "resource_id", "environment_id", "number", "source", "changes", "snapshot", "created_at")
SELECT e."organisation_id", 'environment', e."id", e."id", 1, 'system',
  '["The state when history began."]'::jsonb,
  jsonb_build_object(
    'name', e."name",
    'key', e."key",
    'url', coalesce(e."url", ''),
    'color', e."color",
    'local', e."local",
    'production', e."production",
    'tags', to_jsonb(e."tags"),
    'sdkCanCreateFeatures', e."sdk_can_create_features"
  ),
  e."updated_at"
FROM "environments" e
WHERE e."archived" = false AND NOT EXISTS (
  SELECT 1 FROM "versions" x WHERE x."resource_type" = 'environment' AND x."resource_id" = e."id"
);
