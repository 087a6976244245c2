CREATE TABLE "share_links" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"title" text NOT NULL,
	"snapshot" jsonb,
	"bytes" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_hash_idx" ON "share_links" USING btree ("token_hash");
--> statement-breakpoint
CREATE INDEX "share_links_owner_created_idx" ON "share_links" USING btree ("owner_id","created_at");
