ALTER TABLE "gift_certificates" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gift_certificates" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "gift_certificates" ADD COLUMN "issued_by_staff_id" integer;--> statement-breakpoint
ALTER TABLE "gift_certificates" ADD COLUMN "issue_note" text;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "gift_certificates_issued_idx" ON "gift_certificates" USING btree ("issued_at","id");