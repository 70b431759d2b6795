import { useEffect, useRef } from 'react';

/**
 * A native modal <dialog> (focus kept inside, Escape closes, the page behind inert) for the
 * catalogue's own overlays: the filter sheet on phones and the full-screen gallery. Unlike the
 * shell's ModalHost, it stays open while the address changes (filters apply as you tap).
 */
export function Dialog({
  open,
  onClose,
  label,
  className,
  children,
}: {
  open: boolean;
  onClose: () => void;
  label: string;
  className?: string;
  children: React.ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    if (!dialog.open) dialog.showModal();
    document.body.classList.add('no-scroll');
    return () => {
      document.body.classList.remove('no-scroll');
      if (dialog.open) dialog.close();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={className}
      aria-label={label}
      // Escape (the browser's cancel) and close(): tell the owner, who holds the state.
      onClose={onClose}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      // A click on the backdrop lands on the <dialog> itself.
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {open ? children : null}
    </dialog>
  );
}
