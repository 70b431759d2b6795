// SPEC §1 stylist chat: when its button appears and when it opens by itself.
export const CHAT_BUTTON_DELAY_MS = 15_000;
export const CHAT_AUTO_OPEN_DELAY_MS = 25_000;
export const CHAT_OPENED_KEY = 'vitrina:chat-opened';
/** How long before its button is due the chat's code loads: well after the page's own scripts. */
export const CHAT_LOAD_AHEAD_MS = 3_000;
