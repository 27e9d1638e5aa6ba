CREATE TABLE "session_bindings" (
	"session_id" text PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"email" text,
	"name" text,
	"picture" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_charges" (
	"image_id" integer PRIMARY KEY NOT NULL,
	"uid" text NOT NULL,
	"operation" text NOT NULL,
	"day" date NOT NULL,
	"charged_at" timestamp with time zone DEFAULT now() NOT NULL,
	"refunded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"uid" text NOT NULL,
	"operation" text NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_counters_uid_operation_day_pk" PRIMARY KEY("uid","operation","day")
);
--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_bindings_uid_idx" ON "session_bindings" USING btree ("uid");