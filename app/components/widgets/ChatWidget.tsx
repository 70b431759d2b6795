import { useEffect, useState } from 'react';
import { CHAT_BUTTON_DELAY_MS, CHAT_LOAD_AHEAD_MS } from './chat-timing';
import type { StylistChat } from './StylistChat';
import type { SiteSettings } from '~/shared/site-defaults';

type Chat = typeof StylistChat;

/**
 * SPEC §1 stylist chat widget. Nothing shows before its 15 s, so its code (StylistChat) is no
 * part of the page's first scripts: it loads a few seconds before the button is due, and counts
 * its delays from when this mounted (the page became interactive).
 * chatUrl: the messenger («Тексты сайта», else PUBLIC_CHAT_URL); without it the widget renders nothing.
 * chat: the stylist's name and greeting («Тексты сайта»).
 */
export function ChatWidget({ chatUrl, chat: words }: { chatUrl: string | undefined; chat: SiteSettings['chat'] }) {
  const [chat, setChat] = useState<{ StylistChat: Chat; since: number } | null>(null);
  useEffect(() => {
    if (!chatUrl) return;
    const since = Date.now();
    let alive = true;
    const timer = window.setTimeout(() => {
      import('./StylistChat').then(
        ({ StylistChat }) => alive && setChat({ StylistChat, since }),
        (err: unknown) => console.warn('chat widget not loaded', err),
      );
    }, CHAT_BUTTON_DELAY_MS - CHAT_LOAD_AHEAD_MS);
    return () => {
      alive = false;
      window.clearTimeout(timer);
    };
  }, [chatUrl]);
  if (!chatUrl || !chat) return null;
  return <chat.StylistChat chatUrl={chatUrl} since={chat.since} name={words.name} greeting={words.greeting} />;
}
