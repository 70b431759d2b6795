CREATE TABLE "bonus_lots" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"kind" text NOT NULL,
	"lot_key" text NOT NULL,
	"order_id" integer,
	"amount_kopecks" integer NOT NULL,
	"remaining_kopecks" integer NOT NULL,
	"available_from" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonus_lots_remaining" CHECK ("bonus_lots"."remaining_kopecks" >= 0 and "bonus_lots"."remaining_kopecks" <= "bonus_lots"."amount_kopecks")
);
--> statement-breakpoint
CREATE TABLE "bonus_moves" (
	"id" serial PRIMARY KEY NOT NULL,
	"customer_id" integer NOT NULL,
	"lot_id" integer,
	"kind" text NOT NULL,
	"amount_kopecks" integer NOT NULL,
	"order_id" integer,
	"return_request_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificate_moves" (
	"id" serial PRIMARY KEY NOT NULL,
	"certificate_id" integer NOT NULL,
	"kind" text NOT NULL,
	"amount_kopecks" integer NOT NULL,
	"order_id" integer,
	"return_request_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gift_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"nominal_kopecks" integer NOT NULL,
	"balance_kopecks" integer NOT NULL,
	"order_id" integer,
	"offer_id" integer,
	"issue_key" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"mailed_at" timestamp with time zone,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gift_certificates_balance" CHECK ("gift_certificates"."balance_kopecks" >= 0 and "gift_certificates"."balance_kopecks" <= "gift_certificates"."nominal_kopecks")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"return_request_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"means" text NOT NULL,
	"amount_kopecks" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_kopecks" > 0)
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "birthday" text;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "bonus_kopecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "returned_quantity" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "bonus_kopecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "certificate_kopecks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "certificate" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "decision_note" text;--> statement-breakpoint
ALTER TABLE "return_requests" ADD COLUMN "refund_delivery" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bonus_lots" ADD CONSTRAINT "bonus_lots_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_lots" ADD CONSTRAINT "bonus_lots_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_moves" ADD CONSTRAINT "bonus_moves_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_moves" ADD CONSTRAINT "bonus_moves_lot_id_bonus_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."bonus_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_moves" ADD CONSTRAINT "bonus_moves_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bonus_moves" ADD CONSTRAINT "bonus_moves_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_moves" ADD CONSTRAINT "certificate_moves_certificate_id_gift_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."gift_certificates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_moves" ADD CONSTRAINT "certificate_moves_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificate_moves" ADD CONSTRAINT "certificate_moves_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gift_certificates" ADD CONSTRAINT "gift_certificates_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bonus_lots_key_uq" ON "bonus_lots" USING btree ("customer_id","lot_key");--> statement-breakpoint
CREATE INDEX "bonus_lots_customer_idx" ON "bonus_lots" USING btree ("customer_id","expires_at");--> statement-breakpoint
CREATE INDEX "bonus_moves_customer_idx" ON "bonus_moves" USING btree ("customer_id","id");--> statement-breakpoint
CREATE INDEX "bonus_moves_order_idx" ON "bonus_moves" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "certificate_moves_certificate_idx" ON "certificate_moves" USING btree ("certificate_id","id");--> statement-breakpoint
CREATE INDEX "certificate_moves_order_idx" ON "certificate_moves" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_certificates_code_uq" ON "gift_certificates" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "gift_certificates_issue_key_uq" ON "gift_certificates" USING btree ("issue_key");--> statement-breakpoint
CREATE INDEX "gift_certificates_order_idx" ON "gift_certificates" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_return_means_uq" ON "refunds" USING btree ("return_request_id","means");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "return_requests_order_idx" ON "return_requests" USING btree ("order_id");--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_returned" CHECK ("order_items"."returned_quantity" between 0 and "order_items"."quantity");