CREATE TABLE "experiment_exposures" (
	"experiment_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_key" text NOT NULL,
	"variant_key" text NOT NULL,
	"exposed_at" timestamp with time zone NOT NULL,
	"crossed" boolean DEFAULT false NOT NULL,
	"converted_at" timestamp with time zone,
	"conversions" integer DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "experiment_exposures_pk" PRIMARY KEY("experiment_id","user_key")
);
--> statement-breakpoint
DROP TABLE "goal_counters" CASCADE;--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "mode" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "experiment_exposures" ADD CONSTRAINT "experiment_exposures_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_exposures" ADD CONSTRAINT "experiment_exposures_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;