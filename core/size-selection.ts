// SPEC §4 Catalogue page / §5: the size picker of a product page. The initially chosen size is
// the offer flagged SELECTED; choosing a size picks the offer whose clothing size value matches
// (shoe sizes and single-size items by their own value). Unavailable offers that can be
// pre-ordered stay choosable and turn the button into 'Оформить предзаказ'; the rest are
// disabled. Pure: only the fields of the API's offer that these rules read.

export interface SizedOffer {
  ID: number;
  SELECTED: boolean;
  AVAILABLE: 'Y' | 'N';
  IS_PREORDER: 'Y' | 'N';
  IS_OFFER: { SIZES_CLOTHES?: { LABEL: string; VALUE: string }; SIZES_SHOES?: { LABEL: string; VALUE: string } };
  SIZE_ID: string;
}

export type SizeAvailability = 'in-stock' | 'preorder' | 'unavailable';

export interface SizeOption {
  /** What choosing this size matches offers by. */
  value: string;
  /** What the shopper reads on the size button. */
  label: string;
  offerId: number;
  availability: SizeAvailability;
  /** Neither in stock nor pre-orderable: shown, not choosable. */
  disabled: boolean;
  /** 'предзаказ', 'нет в наличии', or null when in stock. */
  note: string | null;
}

export const ADD_TO_BASKET = 'Добавить в корзину';
export const PLACE_PREORDER = 'Оформить предзаказ';
export const SOLD_OUT = 'Нет в наличии';

/** The size value an offer is chosen by: clothing size, else shoe size, else its SIZE_ID. */
export function sizeValueOf(offer: SizedOffer): string {
  return offer.IS_OFFER.SIZES_CLOTHES?.VALUE ?? offer.IS_OFFER.SIZES_SHOES?.VALUE ?? offer.SIZE_ID;
}

/** What the size button reads: the API's label ('44 (S)'), else the value. */
export function sizeLabelOf(offer: SizedOffer): string {
  return offer.IS_OFFER.SIZES_CLOTHES?.LABEL ?? offer.IS_OFFER.SIZES_SHOES?.LABEL ?? sizeValueOf(offer);
}

export function availabilityOf(offer: SizedOffer): SizeAvailability {
  if (offer.AVAILABLE === 'Y') return 'in-stock';
  return offer.IS_PREORDER === 'Y' ? 'preorder' : 'unavailable';
}

export function availabilityNote(availability: SizeAvailability): string | null {
  if (availability === 'preorder') return 'предзаказ';
  if (availability === 'unavailable') return 'нет в наличии';
  return null;
}

export function isChoosable(offer: SizedOffer): boolean {
  return availabilityOf(offer) !== 'unavailable';
}

/**
 * The size buttons in the API's order, one per size value. Each button stands for the offer that
 * choosing it picks (offerForSize: in stock first, then pre-orderable), so its note never says
 * «предзаказ» while the size is in stock under another offer.
 */
export function sizeOptions(offers: readonly SizedOffer[]): SizeOption[] {
  const byValue = new Map<string, SizedOffer[]>();
  for (const offer of offers) {
    const value = sizeValueOf(offer);
    const same = byValue.get(value);
    if (same) same.push(offer);
    else byValue.set(value, [offer]);
  }
  return [...byValue].map(([value, matching]) => {
    const offer = offerForSize(matching, value) ?? matching[0]!;
    const availability = availabilityOf(offer);
    return {
      value,
      label: sizeLabelOf(offer),
      offerId: offer.ID,
      availability,
      disabled: availability === 'unavailable',
      note: availabilityNote(availability),
    };
  });
}

/**
 * The offer chosen when the page opens: the one flagged SELECTED (the URL named it, or the
 * product has one size), unless it can be neither bought nor pre-ordered; otherwise none, so
 * the shopper picks a size first (SPEC §5).
 */
export function initialOffer<T extends SizedOffer>(offers: readonly T[]): T | null {
  const selected = offers.find((o) => o.SELECTED);
  if (selected) return isChoosable(selected) ? selected : null;
  // One size only and the API did not flag it: nothing to choose, so it is chosen.
  const [only, ...rest] = offers;
  return only && rest.length === 0 && isChoosable(only) ? only : null;
}

/** SPEC §4: a size choice picks the offer whose size value matches; null when none may be chosen. */
export function offerForSize<T extends SizedOffer>(offers: readonly T[], value: string): T | null {
  const matching = offers.filter((o) => sizeValueOf(o) === value);
  return matching.find((o) => availabilityOf(o) === 'in-stock') ?? matching.find(isChoosable) ?? null;
}

export interface BuyButtonState {
  label: string;
  enabled: boolean;
  /** Why the button is inactive, for a hint beside it. */
  hint: string | null;
}

/** SPEC §2/§5: the product button for the chosen offer (none chosen: inactive until a size is). */
export function buyButton(offer: SizedOffer | null): BuyButtonState {
  if (!offer) return { label: ADD_TO_BASKET, enabled: false, hint: 'Выберите размер' };
  const availability = availabilityOf(offer);
  if (availability === 'in-stock') return { label: ADD_TO_BASKET, enabled: true, hint: null };
  if (availability === 'preorder') return { label: PLACE_PREORDER, enabled: true, hint: null };
  return { label: SOLD_OUT, enabled: false, hint: null };
}
