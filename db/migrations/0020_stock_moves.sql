CREATE TABLE "stock_moves" (
	"id" serial PRIMARY KEY NOT NULL,
	"offer_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"quantity_after" integer NOT NULL,
	"reason" text NOT NULL,
	"order_id" integer,
	"return_request_id" integer,
	"import_id" integer,
	"actor_kind" text NOT NULL,
	"actor_id" integer,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_moves_quantity_after_nonnegative" CHECK ("stock_moves"."quantity_after" >= 0),
	CONSTRAINT "stock_moves_actor" CHECK ("stock_moves"."actor_kind" <> 'system' or "stock_moves"."actor_id" is null)
);
--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action DEFERRABLE INITIALLY DEFERRED;--> statement-breakpoint
ALTER TABLE "stock_moves" ADD CONSTRAINT "stock_moves_return_request_id_return_requests_id_fk" FOREIGN KEY ("return_request_id") REFERENCES "public"."return_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_moves_offer_idx" ON "stock_moves" USING btree ("offer_id","id");--> statement-breakpoint
CREATE INDEX "stock_moves_order_idx" ON "stock_moves" USING btree ("order_id");--> statement-breakpoint
-- The ledger opens with each offer's quantity at this moment: one 'seed' move per offer holding
-- stock, so a database that existed before the ledger balances from the start.
INSERT INTO "stock_moves" ("offer_id", "delta", "quantity_after", "reason", "actor_kind", "note")
SELECT "id", "quantity", "quantity", 'seed', 'system', 'Остаток на момент появления журнала'
FROM "offers" WHERE "quantity" > 0 ORDER BY "id";
