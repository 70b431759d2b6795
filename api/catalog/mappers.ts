import { kopecksToRoubles } from '~/core/money';
import { buildCatalogPath, toggleFilterValue, type CatalogFilter, type SortCode } from '~/core/catalog-filter';
import { compareSizeIds, sizeFilterId, sizeLabel, sizeLabelFromId, type SizeType } from '~/core/sizes';
import { mediaUrl } from '~/shared/image-url';
import type {
  Breadcrumb,
  CatalogFilterBlock,
  CatalogListItem,
  ColorVariant,
  FilterValue,
  MenuSection,
  ProductItem,
  ProductOffer,
  ProductProperties,
  PropertyValue,
  SectionLink,
  SortOption,
} from '~/shared/contract';
import type { ListingResult } from '~/models/catalog-index.server';
import type { ListingProduct, ProductDetail } from '~/models/products.server';
import { productUrl, type Section, type SectionIndex } from '~/models/sections.server';

// Catalogue rows into the SPEC §3 shapes (field names, roubles, Russian labels). Pure: no
// database, no HTTP; the page module hands in what the data functions read.

export const SORT_NAMES: Record<SortCode, string> = {
  popular: 'По популярности',
  new: 'Сначала новинки',
  price_asc: 'Сначала дешевле',
  price_desc: 'Сначала дороже',
};

export function toSectionLink(s: Section): SectionLink {
  return { CODE: s.code, NAME: s.name, SECTION_PAGE_URL: s.url };
}

/** The menu tree of SPEC §7 `GET /catalog/?iscollection=no`. */
export function toMenu(index: SectionIndex): MenuSection[] {
  return index.all
    .filter((r) => r.parentId === null && r.inMenu)
    .map((t) => ({
      ...toSectionLink(t),
      SECOND_LVL: index
        .childrenOf(t.id)
        .filter((c) => c.inMenu)
        .map(toSectionLink),
    }));
}

export function toBreadcrumbs(section: Section, index: SectionIndex): Breadcrumb[] {
  const crumbs: Breadcrumb[] = [{ NAME: 'Каталог', URL: '/catalog/' }];
  const parent = section.parentId ? index.byId.get(section.parentId) : undefined;
  if (parent) crumbs.push({ NAME: parent.name, URL: parent.url });
  if (section.kind !== 'all') crumbs.push({ NAME: section.name, URL: section.url });
  return crumbs;
}

export function toListItem(p: ListingProduct, photoPaths: string[], detailUrl: string): CatalogListItem {
  return {
    ID: p.id,
    NAME: p.name,
    DETAIL_PAGE_URL: detailUrl,
    PRICE: kopecksToRoubles(p.priceKopecks),
    OLD_PRICE: p.oldPriceKopecks === null ? null : kopecksToRoubles(p.oldPriceKopecks),
    PREVIEW_PICTURE: photoPaths[0] ? mediaUrl(photoPaths[0]) : null,
    SECOND_PICTURE: photoPaths[1] ? mediaUrl(photoPaths[1]) : null,
    COLOR: p.colorName,
    IS_NEW: p.isNew,
  };
}

/** Size, colour and price facets, each value with its count and canonical link. */
export function toFilterBlocks(found: ListingResult, filter: CatalogFilter, sectionPath: string): CatalogFilterBlock[] {
  const sizeValues: FilterValue[] = [...found.scopeSizes].sort(compareSizeIds).map((id) => {
    const count = found.sizeCounts.get(id) ?? 0;
    const checked = filter.size.includes(id);
    return {
      URL_ID: id,
      VALUE: sizeLabelFromId(id),
      COUNT: count,
      DISABLED: count === 0 && !checked,
      CHECKED: checked,
      URL: buildCatalogPath(sectionPath, toggleFilterValue(filter, 'size', id)),
    };
  });
  const colorValues: FilterValue[] = [...found.scopeColors.entries()]
    .sort((a, b) => a[1].name.localeCompare(b[1].name, 'ru'))
    .map(([code, c]) => {
      const count = found.colorCounts.get(code) ?? 0;
      const checked = filter.color.includes(code);
      return {
        URL_ID: code,
        VALUE: c.name,
        HEX: c.hex,
        COUNT: count,
        DISABLED: count === 0 && !checked,
        CHECKED: checked,
        URL: buildCatalogPath(sectionPath, toggleFilterValue(filter, 'color', code)),
      };
    });
  return [
    { CODE: 'size', NAME: 'Размер', MULTIPLE: true, VALUES: sizeValues },
    { CODE: 'color', NAME: 'Цвет', MULTIPLE: true, VALUES: colorValues },
    {
      CODE: 'price',
      NAME: 'Цена',
      MULTIPLE: false,
      VALUES: {
        MIN: Math.floor(found.minPrice / 100),
        MAX: Math.ceil(found.maxPrice / 100),
        FROM: filter.price.from,
        TO: filter.price.to,
      },
    },
  ];
}

export function toSortOptions(sort: SortCode): SortOption[] {
  return (Object.keys(SORT_NAMES) as SortCode[]).map((code) => ({
    CODE: code,
    NAME: SORT_NAMES[code],
    SELECTED: code === sort,
  }));
}

/** SPEC §3 Product item: offers, properties (MORE_PHOTO a list of photos), colour variants. */
export function toProductItem(
  detail: ProductDetail,
  index: SectionIndex,
  own: Section,
  offerId: number | null,
): ProductItem {
  const { product: p, offers, photos, variants, variantPhotos } = detail;
  const canonical = productUrl(p, index);
  const single = offers.length === 1;
  const offerList: ProductOffer[] = offers.map((o) => {
    const type = o.sizeType as SizeType;
    const label = sizeLabel(type, o.size, o.intlSize);
    const size = { LABEL: label, VALUE: o.size };
    return {
      ID: o.id,
      SELECTED: offerId === o.id || (single && offerId === null),
      AVAILABLE: o.quantity > 0 ? 'Y' : 'N',
      IS_PREORDER: o.quantity <= 0 && o.preorder ? 'Y' : 'N',
      IS_OFFER: type === 'shoes' ? { SIZES_SHOES: size } : { SIZES_CLOTHES: size },
      SIZE_ID: sizeFilterId(type, o.size),
      PRICE: kopecksToRoubles(o.priceKopecks),
      OLD_PRICE: o.oldPriceKopecks === null ? null : kopecksToRoubles(o.oldPriceKopecks),
      QUANTITY: o.quantity,
      IMAGE_SRC: photos[0] ? mediaUrl(photos[0].path) : null,
      DETAIL_PAGE_URL: `${canonical}?offer=${o.id}`,
      PROPERTIES: { SIZE: { NAME: 'Размер', VALUE: label, DESCRIPTION: '' } },
    };
  });

  const properties: Record<string, PropertyValue> = {};
  for (const prop of p.properties) {
    const existing = properties[prop.code];
    if (prop.code === 'CML2_ATTRIBUTES') {
      const values = existing && Array.isArray(existing.VALUE) ? existing.VALUE : [];
      const names = existing && Array.isArray(existing.DESCRIPTION) ? existing.DESCRIPTION : [];
      properties[prop.code] = {
        NAME: prop.name,
        VALUE: [...values, prop.value],
        DESCRIPTION: [...names, prop.description ?? ''],
      };
    } else {
      properties[prop.code] = { NAME: prop.name, VALUE: prop.value, DESCRIPTION: prop.description ?? '' };
    }
  }

  const otherLinks: ColorVariant[] = variants.map((v) => {
    const first = variantPhotos.get(v.id)?.[0];
    return {
      ID: v.id,
      NAME: v.name,
      COLOR: v.color,
      HEX: v.hex,
      DETAIL_PAGE_URL: productUrl(v, index),
      IMAGE_SRC: first ? mediaUrl(first) : null,
      IS_ACTIVE_PAGE: v.id === p.id,
    };
  });

  return {
    ID: p.id,
    NAME: p.name,
    DESCRIPTION: p.description,
    DETAIL_PAGE_URL: canonical,
    SECTION: toSectionLink(own),
    COLOR: p.colorName,
    IS_NEW: p.isNew,
    PRICE: {
      PRICE: kopecksToRoubles(p.oldPriceKopecks ?? p.priceKopecks),
      DISCOUNT_PRICE: kopecksToRoubles(p.priceKopecks),
    },
    // MORE_PHOTO's value is a list of photos, unlike every other property's.
    PROPERTIES: Object.assign(properties, {
      MORE_PHOTO: {
        NAME: 'Фото',
        VALUE: photos.map((ph) => ({
          ID: ph.id,
          FULL: mediaUrl(ph.path),
          ALT: ph.alt,
          WIDTH: ph.width,
          HEIGHT: ph.height,
        })),
        DESCRIPTION: '',
      },
    }) as unknown as ProductProperties,
    OFFERS: offerList,
    OTHER_LINK: otherLinks,
    CERTIFICATE: p.certificate ?? null,
  };
}
