CREATE TABLE "versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" uuid NOT NULL,
	"feature_id" uuid,
	"environment_id" uuid,
	"number" integer NOT NULL,
	"parent_number" integer,
	"author_id" uuid,
	"author_name" text,
	"source" text NOT NULL,
	"comment" text,
	"restored_from" integer,
	"changes" jsonb NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_feature_id_features_id_fk" FOREIGN KEY ("feature_id") REFERENCES "public"."features"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "versions" ADD CONSTRAINT "versions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "versions_resource_number_unique" ON "versions" USING btree ("resource_type","resource_id","number");--> statement-breakpoint
CREATE INDEX "versions_feature_created_idx" ON "versions" USING btree ("feature_id","created_at");--> statement-breakpoint
-- Every control that exists when history begins gets its first version: its state now, by the system.
INSERT INTO "versions" ("organisation_id", "resource_type", "resource_id", "feature_id", "environment_id", "number", "source", "changes", "snapshot", "created_at")
SELECT fc."organisation_id", 'feature_control', fc."id", fc."feature_id", fc."environment_id", 1, 'system',
  '["The state when history began."]'::jsonb,
  jsonb_build_object('enabled', fc."enabled", 'offVariantKey', fc."off_variant_key", 'rules', fc."rules"),
  fc."updated_at"
FROM "feature_controls" fc;
