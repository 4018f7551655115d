CREATE TABLE "throttle_counters" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "throttle_counters_expires_at_idx" ON "throttle_counters" USING btree ("expires_at");