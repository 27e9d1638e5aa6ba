CREATE TABLE "accounts" (
	"uid" text PRIMARY KEY NOT NULL,
	"email" text,
	"email_verified" boolean DEFAULT false NOT NULL,
	"name" text,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_at" timestamp with time zone,
	"blocked_by" text
);--> statement-breakpoint
CREATE INDEX "accounts_email_idx" ON "accounts" USING btree (lower("email"));--> statement-breakpoint
CREATE TABLE "admin_audit" (
	"id" serial PRIMARY KEY NOT NULL,
	"actor_uid" text NOT NULL,
	"actor_email" text,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "session_bindings" ADD COLUMN "email_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "input_width" integer;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "input_height" integer;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "input_bytes" integer;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "engine_host" text;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "failure_reason" text;--> statement-breakpoint
CREATE INDEX "images_updated_idx" ON "images" USING btree ("updated_at");
