import type { ProductItem } from '~/shared/contract';
import {
  attributeRows,
  COMPOSITION_CODES,
  MODEL_CODES,
  propertyRows,
  propertyText,
  type NamedValue,
} from './product-data';

/**
 * The accordions of SPEC §2 Product page: description, composition, model parameters,
 * characteristics, care recommendations. Native <details>: open and close without JavaScript,
 * and their text is in the HTML for search engines. Sections without data are left out.
 */
export function ProductDetails({ item, article }: { item: ProductItem; article: string | null }) {
  const composition = propertyRows(item.PROPERTIES, COMPOSITION_CODES);
  const model = propertyRows(item.PROPERTIES, MODEL_CODES);
  const attributes = attributeRows(item.PROPERTIES);
  const care = propertyText(item.PROPERTIES, 'REKOMENDATSII_PO_UKHODU');
  const characteristics = article ? [...attributes, { name: 'Артикул', value: article }] : attributes;

  return (
    <div className="details">
      {item.DESCRIPTION.trim() ? (
        <details className="details__item" open>
          <summary>Описание</summary>
          <div className="details__body">
            {item.DESCRIPTION.split(/\n\s*\n/).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        </details>
      ) : null}
      {composition.length ? (
        <details className="details__item">
          <summary>Состав</summary>
          <Rows rows={composition} />
        </details>
      ) : null}
      {model.length ? (
        <details className="details__item">
          <summary>Параметры модели</summary>
          <Rows rows={model} />
        </details>
      ) : null}
      {characteristics.length ? (
        <details className="details__item">
          <summary>Характеристики</summary>
          <Rows rows={characteristics} />
        </details>
      ) : null}
      {care ? (
        <details className="details__item">
          <summary>Рекомендации по уходу</summary>
          <div className="details__body">
            {care.split(/\n+/).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        </details>
      ) : null}
    </div>
  );
}

function Rows({ rows }: { rows: readonly NamedValue[] }) {
  return (
    <dl className="details__body details__rows">
      {rows.map((r, i) => (
        <div key={`${r.name}-${i}`} className="details__row">
          <dt>{r.name}</dt>
          <dd>{r.value}</dd>
        </div>
      ))}
    </dl>
  );
}
