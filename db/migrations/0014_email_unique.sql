-- Issue #26 item 10 (docs/email-ownership.md): an e-mail belongs to one customer. Duplicates made
-- before this index (the same address, in any letter case, on several accounts) keep the address
-- on the most recently active account (its latest login, order or sign-up; the higher id on a
-- tie) and have it cleared on the others, who still log in by phone. Addresses are stored
-- trimmed and lower-cased, as the profile form writes them.
UPDATE "customers" SET "email" = lower(btrim("email")) WHERE "email" <> lower(btrim("email"));--> statement-breakpoint
WITH "activity" AS (
	SELECT c."id", c."email",
		GREATEST(
			c."created_at",
			COALESCE((SELECT max(s."created_at") FROM "sessions" s WHERE s."customer_id" = c."id"), c."created_at"),
			COALESCE((SELECT max(o."created_at") FROM "orders" o WHERE o."customer_id" = c."id"), c."created_at")
		) AS "last_active"
	FROM "customers" c
	WHERE c."email" <> ''
), "ranked" AS (
	SELECT "id", row_number() OVER (PARTITION BY "email" ORDER BY "last_active" DESC, "id" DESC) AS "n" FROM "activity"
)
UPDATE "customers" SET "email" = '' FROM "ranked" WHERE "customers"."id" = "ranked"."id" AND "ranked"."n" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_email_uq" ON "customers" USING btree (lower("email")) WHERE "customers"."email" <> '';
