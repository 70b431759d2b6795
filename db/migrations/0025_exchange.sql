CREATE TABLE "exchange_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"filename" text NOT NULL,
	"status" text NOT NULL,
	"kind" text,
	"only_changes" boolean DEFAULT false NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"steps" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "exchange_imports_status" CHECK ("exchange_imports"."status" in ('applying', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "exchange_sale_exports" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"since" timestamp with time zone,
	"until" timestamp with time zone NOT NULL,
	"order_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exchange_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"staff_id" integer NOT NULL,
	"type" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_sessions_type" CHECK ("exchange_sessions"."type" in ('catalog', 'sale'))
);
--> statement-breakpoint
ALTER TABLE "staff" DROP CONSTRAINT "staff_role";--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exchange_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "sections" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "exchange_imports" ADD CONSTRAINT "exchange_imports_session_id_exchange_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."exchange_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_sale_exports" ADD CONSTRAINT "exchange_sale_exports_session_id_exchange_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."exchange_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_sessions" ADD CONSTRAINT "exchange_sessions_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_imports_session_file_idx" ON "exchange_imports" USING btree ("session_id","filename","id");--> statement-breakpoint
CREATE INDEX "exchange_sale_exports_session_idx" ON "exchange_sale_exports" USING btree ("session_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_sessions_token_uq" ON "exchange_sessions" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_import_id_exchange_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."exchange_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offers_external_id_uq" ON "offers" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_external_id_uq" ON "products" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sections_external_id_uq" ON "sections" USING btree ("external_id");--> statement-breakpoint
ALTER TABLE "staff" ADD CONSTRAINT "staff_role" CHECK ("staff"."role" in ('admin', 'manager', 'warehouse', 'content', 'exchange'));