import { AppLink } from '~/app/lib/app-link';
import { KeptPart } from '~/app/lib/kept-part';
import type { CatalogFilterBlock, FilterValue } from '~/shared/contract';
import type { SortCode } from '~/core/catalog-filter';
import { listingSearch } from './listing-url';
import { PriceFilter } from './PriceFilter';

/**
 * The facets of a listing (sizes, colours, price). Every value is a real link to its filter
 * URL (crawlable, fine without JavaScript; React Router makes it a client navigation); a value
 * that would give nothing is shown greyed and is not a link.
 */
export function FilterGroups({
  filters,
  sort,
  replace = false,
  headingLevel = 2,
}: {
  filters: readonly CatalogFilterBlock[];
  sort: SortCode;
  replace?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <>
      {filters.map((block) => {
        const checked = block.CODE === 'price' ? 0 : block.VALUES.filter((v) => v.CHECKED).length;
        if (block.CODE !== 'price' && block.VALUES.length === 0) return null;
        if (block.CODE === 'price' && block.VALUES.MAX <= block.VALUES.MIN) return null;
        return (
          <section className="facet" key={block.CODE} aria-labelledby={`facet-${block.CODE}-${headingLevel}`}>
            <Heading className="facet__title" id={`facet-${block.CODE}-${headingLevel}`}>
              {block.NAME}
              {checked > 0 ? <span className="facet__badge"> · {checked}</span> : null}
            </Heading>
            {block.CODE === 'price' ? (
              <PriceFilter
                key={`${block.VALUES.FROM}-${block.VALUES.TO}`}
                values={block.VALUES}
                sort={sort}
                replace={replace}
              />
            ) : (
              // The values are most of a listing's markup that is not a card (a category page's
              // 37: ~150 elements); on the server they are rendered once per listing state.
              <KeptPart
                as="ul"
                className={`facet__values facet__values--${block.CODE}`}
                part="facet-values"
                data={[block.CODE, sort, replace, block.VALUES]}
              >
                {() => (
                  <>
                    {block.VALUES.map((v) => (
                      <li key={v.URL_ID}>
                        <FacetValue value={v} kind={block.CODE} sort={sort} replace={replace} />
                      </li>
                    ))}
                  </>
                )}
              </KeptPart>
            )}
          </section>
        );
      })}
    </>
  );
}

function FacetValue({
  value,
  kind,
  sort,
  replace,
}: {
  value: FilterValue;
  kind: 'size' | 'color';
  sort: SortCode;
  replace: boolean;
}) {
  const body = (
    <>
      {kind === 'color' ? (
        <span className="swatch" style={{ background: value.HEX ?? '#ccc' }} aria-hidden="true" />
      ) : null}
      <span className="facet__label">{value.VALUE}</span>
      {kind === 'color' ? <span className="facet__count">{value.COUNT}</span> : null}
      {value.CHECKED ? <span className="visually-hidden">, выбрано</span> : null}
    </>
  );
  const className = `facet__value facet__value--${kind}${value.CHECKED ? ' is-checked' : ''}`;
  if (value.DISABLED || (value.COUNT === 0 && !value.CHECKED)) {
    return (
      <span className={`${className} is-disabled`} aria-disabled="true" title="Нет товаров с этим значением">
        {body}
      </span>
    );
  }
  return (
    <AppLink
      to={value.URL + listingSearch(sort)}
      className={className}
      aria-current={value.CHECKED ? 'true' : undefined}
      preventScrollReset
      replace={replace}
    >
      {body}
    </AppLink>
  );
}
