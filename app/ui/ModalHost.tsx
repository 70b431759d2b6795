import {
  createContext,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useLocation } from 'react-router';
import { CloseIcon } from './icons';

// SPEC §2 Modals: one host for every modal of the shop; a route change closes any open one.
export type ModalName =
  | 'auth'
  | 'pickup'
  | 'add-to-cart'
  | 'fast-order'
  | 'waiting-list'
  | 'pre-order'
  | 'delivery'
  | 'guide'
  | 'return'
  | 'instalment'
  | 'menu';

export interface ModalRequest {
  name: ModalName;
  title: string;
  content: React.ReactNode;
  /** The pickup-point modal slides in from the right; the mobile menu from the left. */
  placement?: 'center' | 'right' | 'left';
}

interface ModalApi {
  open(request: ModalRequest): void;
  close(): void;
}

const ModalContext = createContext<ModalApi>({ open: () => {}, close: () => {} });

export function useModal(): ModalApi {
  return useContext(ModalContext);
}

// Which modal is open, for the few parts that keep out of its way (the stylist chat): a store, not
// part of the context's value, so that opening a modal changes no context around the whole page.
// Such a change reaches every part of the page still waiting to hydrate (app/lib/hydrate-later.tsx),
// and React would hydrate them all in the tap's own task.
let openModal: ModalName | null = null;
const openModalListeners = new Set<() => void>();
function subscribeToOpenModal(onChange: () => void): () => void {
  openModalListeners.add(onChange);
  return () => openModalListeners.delete(onChange);
}

/** The name of the modal on screen, if any. */
export function useOpenModal(): ModalName | null {
  return useSyncExternalStore(
    subscribeToOpenModal,
    () => openModal,
    () => null,
  );
}

export function ModalProvider({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  // A modal belongs to the location it was opened at: any navigation closes it.
  const [opened, setOpened] = useState<{ request: ModalRequest; at: string } | null>(null);
  const modal = opened && opened.at === location.key ? opened.request : null;
  const close = useCallback(() => setOpened(null), []);
  const open = useCallback((request: ModalRequest) => setOpened({ request, at: location.key }), [location.key]);
  const api = useMemo<ModalApi>(() => ({ open, close }), [open, close]);
  const name = modal?.name ?? null;
  useLayoutEffect(() => {
    if (openModal === name) return;
    openModal = name;
    for (const listener of openModalListeners) listener();
  }, [name]);

  return (
    <ModalContext.Provider value={api}>
      {children}
      {modal ? <ModalFrame modal={modal} onClose={close} /> : null}
    </ModalContext.Provider>
  );
}

function ModalFrame({ modal, onClose }: { modal: ModalRequest; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  // Before paint: a dialog the shopper can see already listens for Escape and has focus.
  useLayoutEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'Tab' && panel.current) keepFocusInside(panel.current, e);
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('no-scroll');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('no-scroll');
      previous?.focus?.();
    };
  }, [onClose]);
  return (
    <div className="modal" data-placement={modal.placement ?? 'center'}>
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" />
      <div
        className="modal__panel"
        role="dialog"
        aria-modal="true"
        aria-label={modal.title}
        tabIndex={-1}
        ref={panel}
        data-modal={modal.name}
      >
        <div className="modal__head">
          <p className="modal__title">{modal.title}</p>
          <button type="button" className="icon-button" onClick={onClose} aria-label="Закрыть">
            <CloseIcon />
          </button>
        </div>
        <div className="modal__body">{modal.content}</div>
      </div>
    </div>
  );
}

const FOCUSABLE =
  'a[href], summary, button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round the dialog's own controls and never reach the page behind it. */
function keepFocusInside(panel: HTMLElement, e: KeyboardEvent): void {
  const items = Array.from(panel.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => el.getClientRects().length > 0,
  );
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) {
    e.preventDefault();
    panel.focus();
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof Node && panel.contains(active);
  if (e.shiftKey && (!inside || active === first || active === panel)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (!inside || active === last)) {
    e.preventDefault();
    first.focus();
  }
}
