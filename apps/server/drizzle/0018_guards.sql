CREATE TABLE "ramp_alerts" (
	"schedule_id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"action" text NOT NULL,
	"created_by_id" uuid,
	"created_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_alert_at" timestamp with time zone,
	"last_result" text,
	CONSTRAINT "ramp_alerts_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "ramp_exposures" (
	"schedule_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_key" text NOT NULL,
	"arm" text NOT NULL,
	"step" integer NOT NULL,
	"exposed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ramp_exposures_pk" PRIMARY KEY("schedule_id","user_key")
);
--> statement-breakpoint
ALTER TABLE "ramp_alerts" ADD CONSTRAINT "ramp_alerts_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ramp_alerts" ADD CONSTRAINT "ramp_alerts_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ramp_exposures" ADD CONSTRAINT "ramp_exposures_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ramp_exposures" ADD CONSTRAINT "ramp_exposures_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ramp_alerts_organisation_idx" ON "ramp_alerts" USING btree ("organisation_id");