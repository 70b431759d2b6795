// SPEC §2 Modals: the size guide. Body measurements in centimetres for the brand's size runs
// (clothing RU 40–52 = XXS–XXL, shoes 35–41, as in the catalogue's offers).

const CLOTHING_SIZES: ReadonlyArray<{ ru: number; intl: string; bust: number; waist: number; hips: number }> = [
  { ru: 40, intl: 'XXS', bust: 80, waist: 62, hips: 88 },
  { ru: 42, intl: 'XS', bust: 84, waist: 66, hips: 92 },
  { ru: 44, intl: 'S', bust: 88, waist: 70, hips: 96 },
  { ru: 46, intl: 'M', bust: 92, waist: 74, hips: 100 },
  { ru: 48, intl: 'L', bust: 96, waist: 78, hips: 104 },
  { ru: 50, intl: 'XL', bust: 100, waist: 82, hips: 108 },
  { ru: 52, intl: 'XXL', bust: 104, waist: 86, hips: 112 },
];

/** Foot length per size: one Paris point is 2/3 cm, rounded to half a centimetre. */
const SHOE_SIZES: ReadonlyArray<{ ru: number; foot: number }> = [
  { ru: 35, foot: 22.5 },
  { ru: 36, foot: 23 },
  { ru: 37, foot: 23.5 },
  { ru: 38, foot: 24.5 },
  { ru: 39, foot: 25 },
  { ru: 40, foot: 25.5 },
  { ru: 41, foot: 26.5 },
];

const cm = (value: number) => value.toLocaleString('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

export function SizeGuide() {
  return (
    <div className="help">
      <p className="help__lead">
        Сравните свои мерки с таблицей. Если вы между размерами, для свободной посадки выберите больший.
      </p>

      <div className="help__scroll">
        <table className="help-table">
          <caption>Одежда</caption>
          <thead>
            <tr>
              <th scope="col">RU</th>
              <th scope="col">INT</th>
              <th scope="col">Грудь, см</th>
              <th scope="col">Талия, см</th>
              <th scope="col">Бёдра, см</th>
            </tr>
          </thead>
          <tbody>
            {CLOTHING_SIZES.map((s) => (
              <tr key={s.ru}>
                <th scope="row">{s.ru}</th>
                <td>{s.intl}</td>
                <td>{s.bust}</td>
                <td>{s.waist}</td>
                <td>{s.hips}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="help__scroll">
        <table className="help-table help-table--shoes">
          <caption>Обувь</caption>
          <thead>
            <tr>
              <th scope="row">RU</th>
              {SHOE_SIZES.map((s) => (
                <th scope="col" key={s.ru}>
                  {s.ru}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Стопа, см</th>
              {SHOE_SIZES.map((s) => (
                <td key={s.ru}>{cm(s.foot)}</td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>

      <section className="help__section" aria-labelledby="size-guide-measure">
        <h2 className="help__heading" id="size-guide-measure">
          Как снять мерки
        </h2>
        <ul className="help-list">
          <li>
            <strong>Грудь</strong> — по самым выступающим точкам, лента проходит под лопатками.
          </li>
          <li>
            <strong>Талия</strong> — по самому узкому месту, не затягивая ленту.
          </li>
          <li>
            <strong>Бёдра</strong> — по самым выступающим точкам ягодиц, лента параллельна полу.
          </li>
          <li>
            <strong>Стопа</strong> — встаньте на лист бумаги, отметьте пятку и самый длинный палец, измерьте расстояние.
            Лучше мерить вечером.
          </li>
        </ul>
        <p className="help__note">Мерьте по белью, сантиметровая лента должна прилегать плотно, но не врезаться.</p>
      </section>
    </div>
  );
}
