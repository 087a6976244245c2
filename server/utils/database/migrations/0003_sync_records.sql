CREATE TABLE "sync_records" (
	"owner_id" text NOT NULL,
	"kind" text NOT NULL,
	"id" text NOT NULL,
	"hlc" text NOT NULL,
	"deleted" boolean NOT NULL,
	"body" jsonb,
	"bytes" integer NOT NULL,
	"seq" bigserial NOT NULL,
	CONSTRAINT "sync_records_pk" PRIMARY KEY("owner_id","kind","id")
);
--> statement-breakpoint
CREATE INDEX "sync_records_owner_seq_idx" ON "sync_records" USING btree ("owner_id","seq");
--> statement-breakpoint
CREATE TABLE "sync_usage" (
	"owner_id" text PRIMARY KEY NOT NULL,
	"records" integer NOT NULL,
	"bytes" bigint NOT NULL
);
