CREATE TABLE "member_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_removals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"email" text NOT NULL,
	"issuer" text,
	"subject" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_removals_email_lowercase" CHECK (email = lower(email))
);
--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD COLUMN "via" text;--> statement-breakpoint
ALTER TABLE "member_identities" ADD CONSTRAINT "member_identities_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_identities" ADD CONSTRAINT "member_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_removals" ADD CONSTRAINT "member_removals_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "member_identities_subject_unique" ON "member_identities" USING btree ("organisation_id","issuer","subject");--> statement-breakpoint
CREATE UNIQUE INDEX "member_identities_user_issuer_unique" ON "member_identities" USING btree ("user_id","issuer");--> statement-breakpoint
CREATE INDEX "member_removals_email_idx" ON "member_removals" USING btree ("organisation_id","email");--> statement-breakpoint
CREATE INDEX "member_removals_subject_idx" ON "member_removals" USING btree ("organisation_id","issuer","subject") WHERE subject is not null;