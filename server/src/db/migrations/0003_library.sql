ALTER TABLE "images" ADD COLUMN "source_image_id" integer;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "source_index" integer;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_source_image_id_images_id_fk" FOREIGN KEY ("source_image_id") REFERENCES "public"."images"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_owner_uid_idx" ON "images" USING btree ("owner_uid","id");--> statement-breakpoint
CREATE INDEX "images_owner_session_idx" ON "images" USING btree ("owner_session","id");