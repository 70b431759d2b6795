import { useEffect, useId, useRef, useState } from 'react';
import { useModal } from '~/app/components/shell/ModalHost';
import { ChatIcon, CloseIcon } from '~/app/components/icons';

import { CHAT_AUTO_OPEN_DELAY_MS, CHAT_BUTTON_DELAY_MS, CHAT_OPENED_KEY } from './chat-timing';

// SPEC §1: a floating chat widget links to a messenger with a stylist greeting. It appears
// after 15 s and opens by itself once after 25 s; that it opened is remembered in local
// storage, so in this browser it never opens by itself again (the button still appears).
// Both delays count from when the page became interactive (`since`, ChatWidget.tsx, which
// loads this code shortly before the button is due); client navigations keep them.
const GREETING = 'Здравствуйте! Я стилист Vitrina. Помогу подобрать размер и образ — напишите мне.';

/** chatUrl: the messenger (PUBLIC_CHAT_URL); since: when the page became interactive (Date.now()). */
export function StylistChat({ chatUrl, since }: { chatUrl: string; since: number }) {
  const { current: modal } = useModal();
  // Due already when this code came late (a slow connection, a clock moved on in a test).
  const [buttonDue, setButtonDue] = useState(() => Date.now() - since >= CHAT_BUTTON_DELAY_MS);
  const [autoOpenDue, setAutoOpenDue] = useState(() => Date.now() - since >= CHAT_AUTO_OPEN_DELAY_MS && !wasOpenedBefore());
  // null until the shopper clicks: then their choice wins over the automatic opening.
  const [choice, setChoice] = useState<'open' | 'closed' | null>(null);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const focusPanel = useRef(false);
  const panelId = useId();

  useEffect(() => {
    const passed = Date.now() - since;
    const button = passed < CHAT_BUTTON_DELAY_MS ? window.setTimeout(() => setButtonDue(true), CHAT_BUTTON_DELAY_MS - passed) : null;
    const autoOpen =
      wasOpenedBefore() || passed >= CHAT_AUTO_OPEN_DELAY_MS ? null : window.setTimeout(() => setAutoOpenDue(true), CHAT_AUTO_OPEN_DELAY_MS - passed);
    return () => {
      if (button !== null) window.clearTimeout(button);
      if (autoOpen !== null) window.clearTimeout(autoOpen);
    };
  }, [since]);

  // Opening by itself waits while a modal is open, so it is never hidden behind one.
  const open = choice === 'open' || (choice === null && autoOpenDue && modal === null);
  const shown = buttonDue || open;

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
    <div className="chat">
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
              <span className="chat__name">Стилист Vitrina</span>
              <span className="chat__status">{messenger ? `Отвечает ${inMessenger(messenger)}` : 'Отвечает в мессенджере'}</span>
            </p>
            <button type="button" className="icon-button chat__close" onClick={close} aria-label="Закрыть чат">
              <CloseIcon size={20} />
            </button>
          </div>
          <p className="chat__bubble">{GREETING}</p>
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
    if (window.localStorage.getItem(CHAT_OPENED_KEY) === null) window.localStorage.setItem(CHAT_OPENED_KEY, new Date().toISOString());
  } catch {
    // storage blocked or full: nothing to remember it in
  }
}
