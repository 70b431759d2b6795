// Delivery and payment method ids, apart from shared/contract.ts so browser code can use them
// without pulling zod (the contract's schemas) into the storefront's bundle.

/** Delivery method ids: SPEC §9 fixes '139' (CDEK pickup point); the others are ours ('300': electronic gift certificates, by e-mail). */
export const DELIVERY_ID = {
  moscowCourier: '1',
  cdekPickup: '139',
  cdekDoor: '137',
  world: '200',
  email: '300',
} as const;
/** Payment method ids: SPEC §9 fixes 9 (card online); '1' is on receipt, after the fitting; '10' Dolyami and '11' Yandex Split (pay in parts) are ours. */
export const PAYMENT_ID = { onReceipt: '1', cardOnline: '9', dolyami: '10', yandexSplit: '11' } as const;
