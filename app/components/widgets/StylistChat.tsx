import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useOpenModal } from '~/app/ui/ModalHost';
import { ChatIcon, CloseIcon } from '~/app/ui/icons';

import { CHAT_AUTO_OPEN_DELAY_MS, CHAT_BUTTON_DELAY_MS, CHAT_OPENED_KEY } from './chat-timing';
import { autoOpenAllowed, isFillingIn, KEEP_CLEAR_SELECTOR, overlaps, panelBoxAbove, type Box } from './keep-clear';

// SPEC §1: a floating chat widget links to a messenger with a stylist greeting. It appears
// after 15 s and opens by itself once after 25 s; that it opened is remembered in local
// storage, so in this browser it never opens by itself again (the button still appears).
// Both delays count from when the page became interactive (`since`, ChatWidget.tsx, which
// loads this code shortly before the button is due); client navigations keep them.
// It never covers a primary action or a form being filled (issue #26, keep-clear.ts): it does
// not open by itself on the basket, checkout and login pages, nor where its panel would cover
// a part marked `data-keep-clear` or while the shopper types in a field; a panel it opened
// that comes to cover one closes for good; the button steps aside while one is under it.

/**
 * chatUrl: the messenger; since: when the page became interactive (Date.now()); name and
 * greeting: the stylist's («Тексты сайта», shared/site-settings.ts).
 */
export function StylistChat({
  chatUrl,
  since,
  name,
  greeting,
}: {
  chatUrl: string;
  since: number;
  name: string;
  greeting: string;
}) {
  const modal = useOpenModal();
  // Due already when this code came late (a slow connection, a clock moved on in a test).
  const [buttonDue, setButtonDue] = useState(() => Date.now() - since >= CHAT_BUTTON_DELAY_MS);
  const [autoOpenDue, setAutoOpenDue] = useState(
    () => Date.now() - since >= CHAT_AUTO_OPEN_DELAY_MS && !wasOpenedBefore(),
  );
  // null until the shopper clicks: then their choice wins over the automatic opening.
  const [choice, setChoice] = useState<'open' | 'closed' | null>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const focusPanel = useRef(false);
  const panelId = useId();
  const { pathname } = useLocation();
  // Whether the button's spot, and the panel's, are free of parts kept clear (null: not measured yet).
  const [clear, setClear] = useState<{ launcher: boolean; panel: boolean } | null>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    const passed = Date.now() - since;
    const button =
      passed < CHAT_BUTTON_DELAY_MS ? window.setTimeout(() => setButtonDue(true), CHAT_BUTTON_DELAY_MS - passed) : null;
    const autoOpen =
      wasOpenedBefore() || passed >= CHAT_AUTO_OPEN_DELAY_MS
        ? null
        : window.setTimeout(() => setAutoOpenDue(true), CHAT_AUTO_OPEN_DELAY_MS - passed);
    return () => {
      if (button !== null) window.clearTimeout(button);
      if (autoOpen !== null) window.clearTimeout(autoOpen);
    };
  }, [since]);

  // Opening by itself waits while a modal is open, so it is never hidden behind one, and while
  // its spot is not clear.
  const autoOpen = autoOpenDue && modal === null && autoOpenAllowed(pathname) && clear?.panel === true;
  const open = choice === 'open' || (choice === null && autoOpen);
  const shown = buttonDue || autoOpenDue;

  // Measured on scroll, resize, focus changes and layout changes, not on a timer.
  useEffect(() => {
    if (!shown) return;
    const check = () => {
      const button = launcher.current?.getBoundingClientRect();
      if (!button) return;
      const kept: Box[] = [];
      for (const el of document.querySelectorAll(KEEP_CLEAR_SELECTOR)) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) kept.push(r);
      }
      const spot = panel.current?.getBoundingClientRect() ?? panelBoxAbove(button, window.innerWidth);
      const launcherClear = !kept.some((r) => overlaps(r, button));
      const next = {
        launcher: launcherClear,
        panel: launcherClear && !kept.some((r) => overlaps(r, spot)) && !isFillingIn(document.activeElement),
      };
      setClear((prev) => (prev?.launcher === next.launcher && prev.panel === next.panel ? prev : next));
    };
    check();
    const layout = new ResizeObserver(check);
    layout.observe(document.body);
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    document.addEventListener('focusin', check);
    document.addEventListener('focusout', check);
    return () => {
      layout.disconnect();
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      document.removeEventListener('focusin', check);
      document.removeEventListener('focusout', check);
    };
  }, [shown, pathname, open]);

  // A panel that opened by itself and then would cover a part kept clear closes for good.
  useEffect(() => {
    if (wasOpen.current && !open && choice === null) setChoice('closed');
    wasOpen.current = open;
  }, [open, choice]);

  useEffect(() => {
    if (!open) return;
    rememberOpened();
    if (focusPanel.current) {
      focusPanel.current = false;
      panel.current?.focus();
    }
  }, [open]);

  if (!shown) return null;
  const messenger = messengerName(chatUrl);

  const close = () => {
    setChoice('closed');
    launcher.current?.focus();
  };

  return (
    <div className={clear?.launcher === false && !open ? 'chat chat--aside' : 'chat'}>
      {open ? (
        <section
          className="chat__panel"
          id={panelId}
          aria-label="Чат со стилистом"
          tabIndex={-1}
          ref={panel}
          onKeyDown={(e) => {
            if (e.key === 'Escape') close();
          }}
        >
          <div className="chat__head">
            <span className="chat__avatar" aria-hidden="true">
              V
            </span>
            <p className="chat__who">
              <span className="chat__name">{name}</span>
              <span className="chat__status">
                {messenger ? `Отвечает ${inMessenger(messenger)}` : 'Отвечает в мессенджере'}
              </span>
            </p>
            <button type="button" className="icon-button chat__close" onClick={close} aria-label="Закрыть чат">
              <CloseIcon size={20} />
            </button>
          </div>
          <p className="chat__bubble">{greeting}</p>
          <a className="button chat__cta" href={chatUrl} target="_blank" rel="noopener noreferrer">
            {messenger ? `Написать ${inMessenger(messenger)}` : 'Написать стилисту'}
          </a>
        </section>
      ) : null}
      <button
        type="button"
        className="chat__launcher"
        ref={launcher}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => {
          focusPanel.current = !open;
          setChoice(open ? 'closed' : 'open');
        }}
      >
        <ChatIcon size={24} />
        <span className="chat__launcher-text">Чат со стилистом</span>
      </button>
    </div>
  );
}

/** A readable name for the configured messenger, for the link text; null when unknown. */
export function messengerName(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return null;
  }
  if (host === 't.me' || host === 'telegram.me') return 'Telegram';
  if (host === 'wa.me' || host.endsWith('whatsapp.com')) return 'WhatsApp';
  if (host === 'vk.me' || host === 'vk.com') return 'ВКонтакте';
  return null;
}

/** 'в Telegram', 'во ВКонтакте': «во» before в/ф followed by a consonant. */
function inMessenger(name: string): string {
  return `${/^[вф][^аеёиоуыэюя]/i.test(name) ? 'во' : 'в'} ${name}`;
}

function wasOpenedBefore(): boolean {
  try {
    return window.localStorage.getItem(CHAT_OPENED_KEY) !== null;
  } catch {
    return false; // storage blocked: the widget may open by itself once per page load
  }
}

function rememberOpened(): void {
  try {
    if (window.localStorage.getItem(CHAT_OPENED_KEY) === null)
      window.localStorage.setItem(CHAT_OPENED_KEY, new Date().toISOString());
  } catch {
    // storage blocked or full: nothing to remember it in
  }
}
