import type { HTMLAttributes, ReactElement } from 'react';

/** The server's kept markup (app/lib/kept-markup.tsx); null in the browser, whose bundle never carries it. */
export const keptMarkup = import.meta.env.SSR ? (await import('./kept-markup')).keptMarkup : null;

/**
 * A <div> (or a <ul> of kept <li>s) whose content's markup depends on `part` and `data` alone
 * (the mega menu's columns, the footer's link columns, a listing's facet values): on the server
 * its content is rendered once and written as inner HTML from then on; in the browser
 * `children()` renders and hydrates as usual. The content must not use `useId` (a nested render
 * numbers ids its own way), render anything from context, nor hold an eagerly loading image or
 * call `preload()` (React would write the preload into the kept string instead of the document's
 * head).
 */
export function KeptPart({
  as: Tag = 'div',
  part,
  data,
  children,
  ...attributes
}: Omit<HTMLAttributes<HTMLElement>, 'children' | 'dangerouslySetInnerHTML'> & {
  /** The element around the content: a <div>, or a <ul> whose content is its <li>s. */
  as?: 'div' | 'ul';
  /** A name for this kind of part, unique in the shop. */
  part: string;
  /** What the content shows, as plain data (its JSON is part of the key). */
  data?: unknown;
  children: () => ReactElement;
}) {
  const html = keptMarkup?.(data === undefined ? part : `${part}\n${JSON.stringify(data)}`, children);
  if (html != null) return <Tag {...attributes} dangerouslySetInnerHTML={{ __html: html }} />;
  return <Tag {...attributes}>{children()}</Tag>;
}
