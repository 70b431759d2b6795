import { Link } from 'react-router';
import type { CatalogListItem } from '../../api/contract';
import { formatRub, parseRoublesToKopecks } from '../../core/money';

function rub(roubles: number): string {
  return formatRub(parseRoublesToKopecks(roubles) ?? 0);
}

export function ProductCard({ item, eager = false }: { item: CatalogListItem; eager?: boolean }) {
  const discount = item.OLD_PRICE ? Math.round((1 - item.PRICE / item.OLD_PRICE) * 100) : 0;
  return (
    <article className="card">
      <Link to={item.DETAIL_PAGE_URL} className="card__media" prefetch="intent" aria-label={item.NAME}>
        {item.PREVIEW_PICTURE ? (
          <img src={item.PREVIEW_PICTURE} alt="" width={600} height={800} loading={eager ? 'eager' : 'lazy'} decoding="async" />
        ) : null}
        {item.SECOND_PICTURE ? (
          <img className="card__second" src={item.SECOND_PICTURE} alt="" width={600} height={800} loading="lazy" decoding="async" />
        ) : null}
        {item.IS_NEW ? <span className="card__tag">New</span> : null}
        {discount > 0 ? <span className="card__tag card__tag--sale">−{discount}%</span> : null}
      </Link>
      <div className="card__body">
        <h3 className="card__name">
          <Link to={item.DETAIL_PAGE_URL}>{item.NAME}</Link>
        </h3>
        <p className="card__color">{item.COLOR}</p>
        <p className="card__price">
          <span>{rub(item.PRICE)}</span>
          {item.OLD_PRICE ? <s className="card__old">{rub(item.OLD_PRICE)}</s> : null}
        </p>
      </div>
    </article>
  );
}
