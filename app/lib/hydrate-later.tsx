import { Suspense, use, useEffect, useState, type ReactNode } from 'react';

// Parts of the server's page that nobody sees or uses at first (the footer, a listing's later
// rows) need not be hydrated with the rest (issue #33): each sits in a Suspense boundary of its
// own whose content suspends, in the browser, on a gate. React then leaves the boundary's server
// HTML as it is (links work: <AppLinks /> handles their clicks for the whole document) and
// hydrates it once the gate opens: when the part nears the viewport, or at the shopper's first
// interaction anywhere, or when anything in the app updates around it.
// The last two matter: an update that reaches a boundary React has not hydrated yet makes React
// hydrate it at once, and a part that still suspends then is dropped and rendered afresh (its
// fallback, nothing, in between). So the gates open before any such update can be rendered: on
// an event the shopper starts (a capture listener on the window runs before React's), when the
// root layout renders again (a navigation, a fetcher, a revalidation), and when HydrateLater's
// own parent renders it again.

interface Gate {
  opened: boolean;
  /** Its HydrateLater has committed: a render of it now is an update. */
  committed: boolean;
  promise: Promise<void>;
  open(): void;
  markCommitted(): void;
}

const gates = new Set<Gate>();
/** Once true, no part waits any more (a part mounted later renders at once, as anything else). */
let allOpen = import.meta.env.SSR || typeof window === 'undefined';

function newGate(): Gate {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  const gate: Gate = {
    opened: allOpen,
    committed: false,
    promise,
    open() {
      if (gate.opened) return;
      gate.opened = true;
      gates.delete(gate);
      resolve();
    },
    markCommitted() {
      gate.committed = true;
    },
  };
  if (!gate.opened) gates.add(gate);
  return gate;
}

/** Hydrates every part still waiting, and makes later ones render at once. */
export function hydrateAllParts(): void {
  if (allOpen) return;
  allOpen = true;
  for (const gate of [...gates]) gate.open();
  for (const type of INTERACTIONS) window.removeEventListener(type, hydrateAllParts, true);
}

// What a shopper does first: any of these may change state around a waiting part.
const INTERACTIONS = ['pointerdown', 'pointerover', 'keydown', 'focusin', 'click', 'touchstart', 'input'] as const;
if (!allOpen) for (const type of INTERACTIONS) window.addEventListener(type, hydrateAllParts, true);

/** How far ahead of the viewport a part starts hydrating. */
const AHEAD = '400px 0px';

/**
 * Server HTML that is hydrated later: when `find()`'s element nears the viewport, or on the first
 * interaction or update (above). On the server, and in the browser once hydrated or on a
 * client-side render, it is just its children. `find` returns the part's element in the server's
 * DOM (the boundary itself has none of its own); the children must not count towards the
 * document's hydrated mark (app/root.tsx), since they may never hydrate in a visit.
 */
export function HydrateLater({ find, children }: { find: () => Element | null; children: ReactNode }) {
  const [gate] = useState(newGate);
  // Rendered again by its parent: an update is on its way to the part, hydrate it now.
  if (gate.committed) gate.open();
  useEffect(() => {
    gate.markCommitted();
    const element = find();
    if (gate.opened || !element || typeof IntersectionObserver === 'undefined') {
      gate.open();
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) gate.open();
      },
      { rootMargin: AHEAD },
    );
    observer.observe(element);
    void gate.promise.then(() => observer.disconnect());
    return () => observer.disconnect();
    // The part's element is found once, in the server's HTML.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Suspense>
      <Gated gate={gate}>{children}</Gated>
    </Suspense>
  );
}

function Gated({ gate, children }: { gate: Gate; children: ReactNode }) {
  if (!gate.opened && !allOpen) use(gate.promise);
  return children;
}
