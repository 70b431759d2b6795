import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';

/**
 * HTML rendered by the content API (trusted: the shop's own Markdown files). Links to shop
 * paths navigate inside the app instead of reloading the page; everything else (tel:, mailto:,
 * other sites, new-tab clicks) behaves as a plain link.
 */
export function Prose({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    if (!link || link.target || link.hasAttribute('download')) return;
    const href = link.getAttribute('href') ?? '';
    if (!isAppPath(href)) return;
    event.preventDefault();
    void navigate(href);
  };
  return <div className={className ? `prose ${className}` : 'prose'} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}

function isAppPath(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/media/') && !href.startsWith('/img/') && !href.startsWith('/backend/');
}

/** The body split at its `<h2>` headings, so a page can lay sections out one by one. */
export function splitSections(html: string): string[] {
  return html.split(/(?=<h2[\s>])/).filter((part) => part.trim() !== '');
}
