import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SectionCreateBody,
  SectionListResponse,
  SectionOneResponse,
  SectionOrderBody,
  SectionPatchBody,
  type SectionItem,
} from '~/shared/admin-catalogue-contract';
import {
  createSection,
  getSectionRow,
  listSectionRows,
  orderSections,
  updateSection,
} from '~/models/admin-sections.server';
import { invalidateCatalogIndex } from '~/models/catalog-index.server';
import { entityAudit } from '~/models/audit.server';
import { notFound } from '~/api/http.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// The section tree in the back office (issue #30, models/admin-sections.server.ts): the list as a
// tree (parents, each followed by its children), a section's page with its SEO texts and history,
// add, rename, move, order, the mega menu flag. Roles content and admin (sections:write).

const SectionListQuery = listQuery(['sort'], { sort: 'sort', order: 'asc' }, {});
type Row = Awaited<ReturnType<typeof listSectionRows>>[number];
const item = (s: Row): SectionItem => ({
  id: s.row.id,
  code: s.row.code,
  name: s.row.name,
  url: s.row.url,
  parent_id: s.row.parentId,
  sort: s.row.sort,
  kind: s.row.kind,
  in_menu: s.row.inMenu,
  products: s.products,
  path: s.path,
});

export async function adminSectionRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const fresh = async () => invalidateCatalogIndex(db);
  const one = async (dbx: typeof db, id: number) => {
    const s = await getSectionRow(dbx, id);
    if (!s) return null;
    return { ...item(s), seo: s.seo, audit: (await entityAudit(dbx, 'section', id)).map(auditItem) };
  };

  adminRead(app, deps, {
    url: '/sections',
    summary: 'The section tree: top-level sections in their order, each followed by its children',
    permission: 'products:read',
    query: SectionListQuery,
    response: SectionListResponse,
    handler: async ({ query }) => {
      const all = await listSectionRows(db);
      return { data: all.slice(query.offset, query.offset + query.limit).map(item), total: all.length };
    },
  });

  adminRead(app, deps, {
    url: '/sections/:id',
    summary: 'One section with its SEO texts and history',
    permission: 'products:read',
    params: IdParams,
    response: SectionOneResponse,
    handler: async ({ params, reply }) => {
      const data = await one(db, params.id);
      if (!data) return notFound(reply);
      return { data };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/sections',
    summary: "A new section under a top-level one (or at the top); its address is the parent's plus its code (201)",
    permission: 'sections:write',
    body: SectionCreateBody,
    response: SectionOneResponse,
    run: async ({ tx, body }) => {
      const r = await createSection(tx, body);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: { data: await one(tx, r.id) },
        audit: { action: 'section.create', entityType: 'section', entityId: r.id, before: null, after: r.after },
        afterCommit: fresh,
      };
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/sections/:id',
    summary: 'Renames, moves (the address stays), orders, shows in or hides from the menu, or sets the SEO texts',
    permission: 'sections:write',
    params: IdParams,
    body: SectionPatchBody,
    response: SectionOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await updateSection(tx, params.id, body);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: await one(tx, params.id) },
        audit: {
          action: 'section.update',
          entityType: 'section',
          entityId: params.id,
          before: r.before,
          after: r.after,
        },
        afterCommit: fresh,
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/sections/order',
    summary: 'Puts the sections of one level in the given order',
    permission: 'sections:write',
    body: SectionOrderBody,
    response: z.object({ data: z.array(z.number().int()) }),
    run: async ({ tx, body }) => {
      const r = await orderSections(tx, body.parent_id, body.ids);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: r.after },
        audit: {
          action: 'section.order',
          entityType: 'section',
          entityId: body.parent_id ?? 0,
          before: r.before,
          after: r.after,
        },
        afterCommit: fresh,
      };
    },
  });
}
