import { useState } from 'react';
import { useLocation, useNavigation } from 'react-router';
import { AppLink } from '~/app/lib/app-link';
import type { CatalogSectionResponse, PageMeta } from '~/shared/contract';
import { buildCatalogPath, EMPTY_FILTER, parseCatalogPath, type SortCode } from '~/core/catalog-filter';
import { formatThousands } from '~/core/number-mask';
import { Breadcrumbs } from '~/app/ui/Breadcrumbs';
import { Dialog } from '~/app/ui/Dialog';
import { FilterGroups } from '~/app/components/catalog/FilterGroups';
import { ProductGrid } from '~/app/components/catalog/ProductGrid';
import { SortSelect } from '~/app/components/catalog/SortSelect';
import { goodsCount, listingSearch, GOODS } from '~/app/components/catalog/listing-url';
import { pluralRu } from '~/core/plural';
import { CloseIcon } from '~/app/ui/icons';

/** A category listing (SPEC §4): heading with count, filters, sort, the grid, the SEO text. */
export function CategoryPage({
  listing,
  meta,
  sort,
  firstPage,
  apiPath,
}: {
  listing: CatalogSectionResponse;
  meta: PageMeta;
  sort: SortCode;
  firstPage: number;
  apiPath: string;
}) {
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const [sheetOpen, setSheetOpen] = useState(false);
  // The first tap in the sheet adds a history entry, later ones replace it: Back leaves the sheet's work in one step.
  const [sheetNavigated, setSheetNavigated] = useState(false);
  const parsed = parseCatalogPath(pathname);
  const sectionPath = parsed.kind === 'listing' ? parsed.sectionPath : pathname;
  const filtered = parsed.kind === 'listing' && parsed.filtered;
  const resetHref = buildCatalogPath(sectionPath, EMPTY_FILTER) + listingSearch(sort);
  const total = listing.NAV_STRING.ITEMS_COUNT;
  const applied = appliedValues(listing);
  const busy = navigation.state !== 'idle' && navigation.location?.pathname.startsWith('/catalog/') === true;

  // The section itself is the last crumb: plain text on its own page, a link back from a filtered one.
  const crumbs = listing.BREADCRUMBS;
  const lastCrumb = crumbs[crumbs.length - 1];
  const trail = !filtered && lastCrumb ? crumbs.slice(0, -1) : crumbs;

  return (
    <section className="catalog" aria-busy={busy}>
      <Breadcrumbs crumbs={trail} current={!filtered ? lastCrumb?.NAME : undefined} />
      <div className="catalog__top">
        <header className="catalog__head">
          <h1 className="page__title">{listing.SECTION.NAME}</h1>
          <p className="catalog__count">{goodsCount(total)}</p>
        </header>
        <div className="catalog__toolbar">
          <button
            type="button"
            className="catalog__filters-button"
            onClick={() => setSheetOpen(true)}
            aria-haspopup="dialog"
          >
            Фильтры{applied.length > 0 ? <span className="catalog__filters-count"> · {applied.length}</span> : null}
          </button>
          <SortSelect sorts={listing.SORTS} sort={sort} />
        </div>
      </div>

      {applied.length > 0 ? (
        <ul className="applied" aria-label="Выбранные фильтры">
          {applied.map((a) => (
            <li key={a.key}>
              <AppLink
                to={a.removeHref + listingSearch(sort)}
                className="applied__chip"
                preventScrollReset
                aria-label={`Убрать фильтр: ${a.label}`}
              >
                {a.label}
                <span aria-hidden="true" className="applied__x">
                  ×
                </span>
              </AppLink>
            </li>
          ))}
          <li>
            <AppLink to={resetHref} className="applied__reset" preventScrollReset>
              Сбросить все
            </AppLink>
          </li>
        </ul>
      ) : null}

      <div className="catalog__layout">
        <aside className="catalog__aside" aria-label="Фильтры">
          <FilterGroups filters={listing.FILTER} sort={sort} />
        </aside>
        <div className="catalog__results">
          {total === 0 ? (
            <div className="catalog__empty">
              {filtered ? (
                <>
                  <p className="catalog__empty-title">По выбранным фильтрам ничего не нашлось</p>
                  <p>Попробуйте убрать часть фильтров или выбрать другой размер, цвет или цену.</p>
                  <AppLink to={resetHref} className="button">
                    Сбросить фильтры
                  </AppLink>
                </>
              ) : (
                <>
                  <p className="catalog__empty-title">В этом разделе пока нет товаров</p>
                  <AppLink to="/catalog/" className="button">
                    Смотреть весь каталог
                  </AppLink>
                </>
              )}
            </div>
          ) : (
            <ProductGrid
              // State resets with every new listing: another filter or order starts from its first page.
              key={`${pathname}|${sort}`}
              items={listing.ITEMS}
              nav={listing.NAV_STRING}
              sort={sort}
              apiPath={apiPath}
              firstPage={firstPage}
            />
          )}
        </div>
      </div>

      {meta.seoBottom ? (
        <div className="seo-text">
          {meta.seoBottom.split(/\n\s*\n/).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      ) : null}

      <Dialog
        open={sheetOpen}
        onClose={() => {
          setSheetOpen(false);
          setSheetNavigated(false);
        }}
        label="Фильтры"
        className="sheet"
      >
        <div className="sheet__head">
          <h2 className="sheet__title">Фильтры</h2>
          <button
            type="button"
            className="icon-button sheet__close"
            onClick={() => setSheetOpen(false)}
            aria-label="Закрыть"
          >
            <CloseIcon size={20} />
          </button>
        </div>
        <div
          className="sheet__body"
          onClickCapture={(e) => {
            if ((e.target as HTMLElement).closest('a')) setSheetNavigated(true);
          }}
        >
          <FilterGroups filters={listing.FILTER} sort={sort} replace={sheetNavigated} headingLevel={3} />
        </div>
        <div className="sheet__foot">
          {filtered ? (
            <AppLink
              to={resetHref}
              className="button button--ghost sheet__reset"
              preventScrollReset
              replace={sheetNavigated}
            >
              Сбросить
            </AppLink>
          ) : null}
          <button
            type="button"
            className="button sheet__apply"
            onClick={() => setSheetOpen(false)}
            aria-busy={busy}
            disabled={busy}
          >
            {busy
              ? 'Подбираем…'
              : total > 0
                ? `Показать ${formatThousands(total)} ${pluralRu(total, ...GOODS)}`
                : 'Ничего не найдено'}
          </button>
        </div>
      </Dialog>
    </section>
  );
}

interface AppliedValue {
  key: string;
  label: string;
  removeHref: string;
}

/** The filters in force, each with the link that takes it off. */
function appliedValues(listing: CatalogSectionResponse): AppliedValue[] {
  const out: AppliedValue[] = [];
  for (const block of listing.FILTER) {
    if (block.CODE === 'price') {
      const { FROM, TO } = block.VALUES;
      if (FROM === null && TO === null) continue;
      const label =
        FROM !== null && TO !== null
          ? `${formatThousands(FROM)} – ${formatThousands(TO)} ₽`
          : FROM !== null
            ? `от ${formatThousands(FROM)} ₽`
            : `до ${formatThousands(TO ?? 0)} ₽`;
      const parsed = parseCatalogPath(listing.CANONICAL_URL);
      const removeHref =
        parsed.kind === 'listing'
          ? buildCatalogPath(parsed.sectionPath, { ...parsed.filter, price: { from: null, to: null } })
          : listing.SECTION.SECTION_PAGE_URL;
      out.push({ key: 'price', label, removeHref });
      continue;
    }
    for (const v of block.VALUES)
      if (v.CHECKED)
        out.push({
          key: `${block.CODE}:${v.URL_ID}`,
          label: block.CODE === 'size' ? `Размер ${v.VALUE}` : v.VALUE,
          removeHref: v.URL,
        });
  }
  return out;
}
