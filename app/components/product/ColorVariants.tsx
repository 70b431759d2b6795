import { Link } from 'react-router';
import type { ColorVariant } from '~/shared/contract';

/** The product's other colours (SPEC §3 OTHER_LINK): links with swatches, the open one marked. */
export function ColorVariants({ variants, color }: { variants: readonly ColorVariant[]; color: string }) {
  return (
    <div className="colors">
      <p className="colors__label">
        Цвет: <span className="colors__name">{color}</span>
      </p>
      {variants.length > 1 ? (
        <ul className="colors__list" aria-label="Другие цвета">
          {variants.map((v) => (
            <li key={v.ID}>
              <Link
                to={v.DETAIL_PAGE_URL}
                className={`colors__link${v.IS_ACTIVE_PAGE ? ' is-active' : ''}`}
                aria-current={v.IS_ACTIVE_PAGE ? 'page' : undefined}
                aria-label={v.COLOR}
                title={v.COLOR}
                prefetch="intent"
                preventScrollReset
              >
                <span className="colors__swatch" style={{ background: v.HEX }} aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
