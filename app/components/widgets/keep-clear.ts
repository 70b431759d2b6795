// Where the stylist chat may not sit (issue #26): it never covers a primary action or a form
// being filled. Such parts carry `data-keep-clear` (the buy buttons, the checkout form, the
// basket's totals, the payment panel, the login form); pages where the shopper is busy with a
// task never get the panel opened by itself.

export const KEEP_CLEAR_SELECTOR = '[data-keep-clear]';

/** Paths of the basket, checkout, payment and login: the chat does not open there by itself. */
export function autoOpenAllowed(pathname: string): boolean {
  return !/^\/(basket|auth)(\/|$)/.test(pathname);
}

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** How tall the open panel is at most (greeting, link, header), for where it would open. */
export const PANEL_HEIGHT = 280;
export const PANEL_WIDTH = 340;
const GAP = 12;

/** Where the panel opens: above the launcher, right-aligned with it. */
export function panelBoxAbove(launcher: Box, viewportWidth: number): Box {
  const width = Math.min(PANEL_WIDTH, viewportWidth - 32);
  return {
    left: launcher.right - width,
    right: launcher.right,
    bottom: launcher.top - GAP,
    top: launcher.top - GAP - PANEL_HEIGHT,
  };
}

/** Whether the focus is in a field the shopper types or chooses in (a form being filled). */
export function isFillingIn(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLElement && el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['button', 'submit', 'reset', 'checkbox', 'radio', 'image', 'hidden'].includes(type);
}
