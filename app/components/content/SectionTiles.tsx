import { IntentLink } from '~/app/lib/app-link';
import { Image } from '~/app/ui/Image';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH, artImageUrl, SECTION_ART } from '~/shared/art';

export interface SectionTile {
  name: string;
  url: string;
}

// A scrolling row of 38% tiles on phones, 4 columns from 700 px, 8 from 1024 px (content.css).
const TILE_SIZES = '(min-width: 1440px) 160px, (min-width: 1024px) 12vw, (min-width: 700px) 23vw, 38vw';

/** '/catalog/woman/denim/' → 'denim' */
function sectionCode(url: string): string {
  return url.split('/').filter(Boolean).pop() ?? '';
}

/** Catalogue sections as picture tiles: a garment illustration per section and its name. */
export function SectionTiles({ sections, label }: { sections: readonly SectionTile[]; label: string }) {
  return (
    <ul className="section-tiles" aria-label={label}>
      {sections.map((s) => {
        const art = SECTION_ART[sectionCode(s.url)] ?? { kind: 'coat' as const, color: '#b59a78' };
        return (
          <li key={s.url}>
            <IntentLink to={s.url} className="section-tile">
              <span className="section-tile__media">
                <Image src={artImageUrl(art.kind, art.color, 0)} alt="" width={ART_IMAGE_WIDTH} height={ART_IMAGE_HEIGHT} sizes={TILE_SIZES} loading="lazy" placeholder />
              </span>
              <span className="section-tile__name">{s.name}</span>
            </IntentLink>
          </li>
        );
      })}
    </ul>
  );
}
