import { discountPercent, formatRoubles } from '~/core/pricing';
import { Image } from '~/app/ui/Image';
import type { BuyTarget } from './buy-target';

/** The product a basket modal is about: photo, name, colour, size, price. */
export function ProductSummary({ target }: { target: BuyTarget }) {
  const sale = discountPercent(target.price, target.oldPrice) > 0;
  return (
    <div className="buy-summary">
      <div className="buy-summary__media">
        {target.image ? <Image src={target.image} alt="" width={72} height={96} loading="eager" placeholder /> : null}
      </div>
      <div className="buy-summary__text">
        <p className="buy-summary__name">{target.name}</p>
        {target.color ? <p className="buy-summary__meta">Цвет: {target.color}</p> : null}
        {target.sizeLabel ? <p className="buy-summary__meta">Размер: {target.sizeLabel}</p> : null}
        <p className="buy-summary__price">
          <span className={sale ? 'is-sale' : undefined}>{formatRoubles(target.price)}</span>
          {sale && target.oldPrice ? (
            <s>
              <span className="visually-hidden">Цена без скидки: </span>
              {formatRoubles(target.oldPrice)}
            </s>
          ) : null}
        </p>
      </div>
    </div>
  );
}
