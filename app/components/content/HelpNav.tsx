import { Link } from 'react-router';
import { findInfoPage } from '~/app/lib/info-pages';

/** The shopper-help pages, in the order a shopper meets the questions. */
export const HELP_PATHS = [
  '/purchase-guide/',
  '/delivery/',
  '/shipment/',
  '/return/',
  '/warranty/',
  '/pre-order/',
  '/dolyami/',
  '/yandex-split/',
  '/international-payments/',
  '/podarochnye-sertifikaty/',
  '/loyalty/',
  '/advices/',
  '/privacy-policy/',
  '/contacts/',
] as const;

export function isHelpPath(path: string): boolean {
  return (HELP_PATHS as readonly string[]).includes(path);
}

/** Side navigation between the help pages (below the text on phones); `current` is marked. */
export function HelpNav({ current }: { current: string }) {
  return (
    <nav className="help-nav" aria-label="Покупателям">
      <p className="help-nav__title" aria-hidden="true">
        Покупателям
      </p>
      <ul>
        {HELP_PATHS.map((path) => (
          <li key={path}>
            <Link to={path} prefetch="intent" aria-current={path === current ? 'page' : undefined}>
              {findInfoPage(path)?.heading ?? path}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
