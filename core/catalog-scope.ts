// Which products a catalogue section shows and under which section paths a product opens.
// A section's `kind` says it (sections.kind): 'category' holds products of itself and its
// children; 'new' and 'sale' are built from product flags; 'all' is the whole catalogue.

export type SectionKind = 'category' | 'new' | 'sale' | 'all';

export interface ScopedSection {
  id: number;
  kind: SectionKind;
}

export interface ScopedProduct {
  sectionId: number;
  isNew: boolean;
  onSale: boolean;
}

export interface Scope {
  /** Section ids to include; null = every section. */
  sectionIds: ReadonlySet<number> | null;
  isNew?: boolean;
  onSale?: boolean;
}

/** The listing scope of a section; `childIds` are its sub-sections (a category shows theirs too). */
export function sectionScope(section: ScopedSection, childIds: readonly number[]): Scope {
  switch (section.kind) {
    case 'all':
      return { sectionIds: null };
    case 'new':
      return { sectionIds: null, isNew: true };
    case 'sale':
      return { sectionIds: null, onSale: true };
    case 'category':
      return { sectionIds: new Set([section.id, ...childIds]) };
  }
}

/**
 * A product opens under its own section, the whole catalogue, and the new collection or sale
 * while it belongs there; any other section path is not an address of it (404).
 */
export function opensUnder(section: ScopedSection, product: ScopedProduct): boolean {
  switch (section.kind) {
    case 'all':
      return true;
    case 'new':
      return product.isNew;
    case 'sale':
      return product.onSale;
    case 'category':
      return section.id === product.sectionId;
  }
}

/** Listings of flag-built sections link products under the section itself (the shopper stays in it). */
export function linksUnderSection(section: ScopedSection): boolean {
  return section.kind === 'all' || section.kind === 'new';
}
