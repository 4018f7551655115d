CREATE TABLE "schedule_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"schedule_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"step" integer,
	"actor_name" text,
	"message" text NOT NULL,
	"version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"feature_id" uuid NOT NULL,
	"environment_id" uuid NOT NULL,
	"control_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text NOT NULL,
	"spec" jsonb NOT NULL,
	"step" integer DEFAULT -1 NOT NULL,
	"generation" integer DEFAULT 0 NOT NULL,
	"next_due_at" timestamp with time zone,
	"step_started_at" timestamp with time zone,
	"exposure_baseline" bigint,
	"approved_step" integer,
	"base_version" integer,
	"base_state" jsonb,
	"prior_state" jsonb,
	"last_occurrence_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"bypass" boolean DEFAULT false NOT NULL,
	"change_request_id" uuid,
	"author_id" uuid,
	"author_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_events" ADD CONSTRAINT "schedule_events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_events" ADD CONSTRAINT "schedule_events_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_feature_id_features_id_fk" FOREIGN KEY ("feature_id") REFERENCES "public"."features"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_control_id_feature_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."feature_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_change_request_id_change_requests_id_fk" FOREIGN KEY ("change_request_id") REFERENCES "public"."change_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schedule_events_schedule_idx" ON "schedule_events" USING btree ("schedule_id","created_at");--> statement-breakpoint
CREATE INDEX "schedules_project_state_idx" ON "schedules" USING btree ("organisation_id","project_id","state");--> statement-breakpoint
CREATE INDEX "schedules_control_idx" ON "schedules" USING btree ("control_id");--> statement-breakpoint
CREATE INDEX "schedules_open_due_idx" ON "schedules" USING btree ("next_due_at") WHERE "schedules"."state" in ('ready', 'running');