// Russian plurals: the one rule for every count the shop writes ('3 товара', '5 дней', '21 бонус').

/** The Russian form for `n`: one (1, 21, 101), few (2–4, 22–24) or many (0, 5–20, 25…). */
export function pluralRu(n: number, one: string, few: string, many: string): string {
  const abs = Math.abs(Math.trunc(n));
  const lastTwo = abs % 100;
  const last = abs % 10;
  if (lastTwo >= 11 && lastTwo <= 14) return many;
  if (last === 1) return one;
  if (last >= 2 && last <= 4) return few;
  return many;
}
