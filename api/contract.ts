import { z } from 'zod';

// The one description of every product-API response shape this shop defines. SPEC §3/§7
// field names are kept (SECTIONS, ITEMS, NAV_STRING, ...); the storefront's ApiClient types
// come from here, and so will the published OpenAPI document.

export const SectionLink = z.object({
  CODE: z.string(),
  NAME: z.string(),
  SECTION_PAGE_URL: z.string(),
});
export type SectionLink = z.infer<typeof SectionLink>;

export const MenuSection = SectionLink.extend({ SECOND_LVL: z.array(SectionLink) });
export type MenuSection = z.infer<typeof MenuSection>;

export const SectionsResponse = z.object({ SECTIONS: z.array(MenuSection) });
export type SectionsResponse = z.infer<typeof SectionsResponse>;

export const PageMeta = z.object({
  title: z.string(),
  description: z.string(),
  keywords: z.string(),
  seoBottom: z.string().optional(),
  seoDescription: z.string().optional(),
  canonicalPath: z.string(),
});
export type PageMeta = z.infer<typeof PageMeta>;

export const RedirectResponse = z.object({
  redirect: z.object({ location: z.string(), status: z.number().int(), external: z.boolean() }).nullable(),
});
export type RedirectResponse = z.infer<typeof RedirectResponse>;

export const CatalogListItem = z.object({
  ID: z.number().int(),
  NAME: z.string(),
  DETAIL_PAGE_URL: z.string(),
  // Roubles as integers of kopecks are kept internally; the contract speaks roubles (integers).
  PRICE: z.number(),
  OLD_PRICE: z.number().nullable(),
  PREVIEW_PICTURE: z.string().nullable(),
  SECOND_PICTURE: z.string().nullable(),
  COLOR: z.string(),
  IS_NEW: z.boolean(),
});
export type CatalogListItem = z.infer<typeof CatalogListItem>;

export const NavString = z.object({
  CURRENT_PAGE: z.number().int(),
  PAGE_COUNT: z.number().int(),
  PAGE_SIZE: z.number().int(),
  ITEMS_COUNT: z.number().int(),
});
export type NavString = z.infer<typeof NavString>;

export const CatalogSectionResponse = z.object({
  SECTION: SectionLink,
  BREADCRUMBS: z.array(z.object({ NAME: z.string(), URL: z.string() })),
  ITEMS: z.array(CatalogListItem),
  NAV_STRING: NavString,
});
export type CatalogSectionResponse = z.infer<typeof CatalogSectionResponse>;

export const ApiError = z.object({ error: z.string() });
export type ApiError = z.infer<typeof ApiError>;
