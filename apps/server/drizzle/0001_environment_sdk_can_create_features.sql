ALTER TABLE "environments" ADD COLUMN "sdk_can_create_features" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Existing environments keep letting SDK registration create features, except production ones
-- (the marker or a "production" tag in any case), where it is now off until an admin turns it on.
UPDATE "environments" SET "sdk_can_create_features" = true
WHERE NOT "production"
  AND NOT EXISTS (SELECT 1 FROM unnest("tags") AS t(tag) WHERE lower(t.tag) = 'production');
