CREATE TABLE "sent_messages" (
	"key" text PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"tag" text,
	"provider_id" text,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
