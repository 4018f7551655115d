-- Every feature that exists when the history of feature settings begins gets its first version: its
-- settings now (the Feature Settings form's fields, as core's featureSettingsSnapshotSchema), by the
-- system (docs/adr/0022-versions.md). Variants in order, a variant without a value has none; goals by
-- key; issue keys in the order they were linked; the maintainer by id with the name shown now.
INSERT INTO "versions" ("organisation_id", "resource_type", "resource_id", "feature_id", "environment_id", "number", "source", "changes", "snapshot", "created_at")
SELECT f."organisation_id", 'feature', f."id", f."id", NULL, 1, 'system',
  '["The state when history began."]'::jsonb,
  jsonb_build_object(
    'name', f."name",
    'key', f."key",
    'description', f."description",
    'permanent', f."permanent",
    'variants', coalesce((
      SELECT jsonb_agg(
        CASE WHEN v."value" IS NULL OR v."value" = 'null'::jsonb
          THEN jsonb_build_object('key', v."key", 'name', v."name", 'description', v."description")
          ELSE jsonb_build_object('key', v."key", 'name', v."name", 'description', v."description", 'value', v."value")
        END ORDER BY v."position", v."key")
      FROM "variants" v WHERE v."feature_id" = f."id"), '[]'::jsonb),
    'tags', to_jsonb(f."tags"),
    'goals', coalesce((
      SELECT jsonb_agg(g."key" ORDER BY g."key")
      FROM "feature_goals" fg JOIN "goals" g ON g."id" = fg."goal_id"
      WHERE fg."feature_id" = f."id"), '[]'::jsonb),
    'jiraIssueKeys', coalesce((
      SELECT jsonb_agg(l."issue_key" ORDER BY l."created_at", l."issue_key")
      FROM "feature_issue_links" l WHERE l."feature_id" = f."id"), '[]'::jsonb),
    'maintainer', (
      SELECT jsonb_build_object('id', u."id", 'name', coalesce(
        nullif(concat_ws(' ', nullif(trim(u."first_name"), ''), nullif(trim(u."last_name"), '')), ''),
        u."email"))
      FROM "users" u WHERE u."id" = f."maintainer_id")
  ),
  f."updated_at"
FROM "features" f
WHERE NOT EXISTS (
  SELECT 1 FROM "versions" x WHERE x."resource_type" = 'feature' AND x."resource_id" = f."id"
);
