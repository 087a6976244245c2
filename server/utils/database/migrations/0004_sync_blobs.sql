CREATE TABLE "sync_blobs" (
	"owner_id" text NOT NULL,
	"id" text NOT NULL,
	"message_id" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"data" bytea NOT NULL,
	CONSTRAINT "sync_blobs_pk" PRIMARY KEY("owner_id","id")
);
--> statement-breakpoint
CREATE INDEX "sync_blobs_owner_message_idx" ON "sync_blobs" USING btree ("owner_id","message_id");
