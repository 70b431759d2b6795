import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ImportApplyResponse,
  ImportCheckBody,
  ImportCheckResponse,
  MAX_IMPORT_CSV_CHARS,
  ProductBulkBody,
  ProductBulkResponse,
} from '~/shared/admin-catalogue-bulk-contract';
import { CSV_HEADING } from '~/core/catalogue-csv';
import { can } from '~/core/staff-roles';
import {
  applyCatalogueImport,
  bulkProducts,
  catalogueExportBatches,
  checkCatalogueImport,
} from '~/models/admin-catalogue-bulk.server';
import { invalidateCatalogIndex } from '~/models/catalog-index.server';
import { sendBackInStock, type BackInStockNotice } from '~/models/stock.server';
import { writeAudit } from '~/models/audit.server';
import { adminChange, adminRead, filterValue, IdParams, refusal } from './action.server';
import { staffActor, type AdminDeps } from './context.server';
import { sendCsv } from './csv.server';

// Bulk work on the catalogue (issue #30, docs/back-office.md "Products in a spreadsheet", "Bulk
// actions"): the CSV export (products:read), the import's dry run and confirmation
// (products:write; changing a quantity also needs stock:adjust), and the list's bulk actions
// (products:write). Changes are adminChange (one transaction, Idempotency-Key, audit rows), bump
// the catalogue version, and drop this process's listing index after the commit.

const ExportQuery = z.object({ format: filterValue(z.enum(['excel', 'plain'])) }).strict();

/** '2026-12-01' in Moscow time (UTC+3 all year). */
const moscowDate = (d: Date) => new Date(d.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);

export async function adminCatalogueBulkRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const afterCommit = (notices: BackInStockNotice[]) => async () => {
    invalidateCatalogIndex(db);
    if (notices.length) await sendBackInStock({ db, sms: deps.sms, log: app.log, siteUrl: deps.siteUrl, notices });
  };

  adminRead(app, deps, {
    url: '/products/export.csv',
    summary:
      "Every product as CSV, one row per size (article, name, section, kind, colour, size, its type, barcode, price, old price, quantity, shown): format=excel (default: UTF-8 with a byte order mark, ';') or plain (UTF-8, ','); streamed by keyset; each export in the audit log (product.export)",
    permission: 'products:read',
    query: ExportQuery,
    response: z.string(),
    contentType: 'text/csv; charset=utf-8',
    handler: async ({ query, req, reply }) => {
      const now = deps.now();
      const flavour = query.format ?? 'excel';
      await writeAudit(
        db,
        staffActor(req),
        { action: 'product.export', entityType: 'product', entityId: '*', after: { format: flavour } },
        now,
      );
      return sendCsv(req, reply, {
        fileName: `products-${moscowDate(now)}.csv`,
        heading: CSV_HEADING,
        flavour,
        batches: (separator) => catalogueExportBatches(db, separator),
      });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/import/check',
    summary:
      'The dry run of a products CSV (the export\'s columns, ";" or "," detected, a byte order mark allowed): rows to create, rows to change with before and after, each error with its line; the plan is kept for products/import/:id/apply, nothing else is written (201)',
    permission: 'products:write',
    body: ImportCheckBody,
    response: ImportCheckResponse,
    bodyLimit: MAX_IMPORT_CSV_CHARS * 3 + 4096,
    run: async ({ tx, body, staff, now }) => {
      const r = await checkCatalogueImport(tx, {
        csv: body.csv,
        fileName: body.file_name,
        staffId: staff.id,
        canAdjustStock: can(staff.role, 'stock:adjust'),
        now,
      });
      const s = r.summary;
      return {
        ok: true,
        status: 201,
        body: { data: { id: r.id, separator: r.separator, summary: s } } satisfies ImportCheckResponse,
        audit: {
          action: 'catalogue.import_check',
          entityType: 'catalogue_import',
          entityId: r.id,
          after: {
            file: body.file_name,
            rows: s.rows,
            create_rows: s.create_rows,
            change_rows: s.change_rows,
            error_rows: s.error_rows,
          },
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/import/:id/apply',
    summary:
      "Applies a dry run whole in one transaction (all rows or none): refused when it had errors, when its products changed since (409), or when it was applied already (409); quantities move through the stock ledger with reason 'import'; one audit row per product",
    permission: 'products:write',
    params: IdParams,
    body: z.object({}).strict(),
    response: ImportApplyResponse,
    run: async ({ tx, params, staff, now }) => {
      const r = await applyCatalogueImport(tx, { id: params.id, staffId: staff.id, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: {
          data: { id: r.id, created: r.created, changed: r.changed, stock_moves: r.moved },
        } satisfies ImportApplyResponse,
        audit: r.audit,
        afterCommit: afterCommit(r.notices),
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/bulk',
    summary:
      'One action on the selected products (ids, at most 1 000): activate, deactivate, add_section { section_id }, sale { percent } (the price from the old price, or the price when none, less the percent, in whole roubles; the old price set). Products already so are skipped; one audit row per product changed; none changed is 409',
    permission: 'products:write',
    body: ProductBulkBody,
    response: ProductBulkResponse,
    run: async ({ tx, body }) => {
      const r = await bulkProducts(tx, body.ids, body);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: { changed: r.changed, skipped: r.skipped } } satisfies ProductBulkResponse,
        audit: r.audit,
        afterCommit: afterCommit([]),
      };
    },
  });
}
