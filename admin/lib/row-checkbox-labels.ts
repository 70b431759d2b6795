import { useCallback, useRef } from 'react';

/**
 * react-admin's row checkboxes (Datagrid with bulk actions) put their «Выбрать эту запись» label on
 * MUI's wrapper <span>, where assistive technology ignores it (axe: aria-prohibited-attr), and
 * leave the <input> itself unlabelled. This moves each label onto its input, for rows rendered
 * now and later (paging, filtering). React does not set the attribute again while its value is
 * unchanged, so the move holds. A callback ref: the list mounts its rows after its first load.
 */
export function useRowCheckboxLabels<T extends HTMLElement>(): (element: T | null) => void {
  const observer = useRef<MutationObserver | null>(null);
  return useCallback((root: T | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!root) return;
    const relabel = () => {
      for (const wrapper of root.querySelectorAll<HTMLElement>('.select-item[aria-label]')) {
        const input = wrapper.querySelector('input');
        const label = wrapper.getAttribute('aria-label');
        if (!input || !label) continue;
        input.setAttribute('aria-label', label);
        wrapper.removeAttribute('aria-label');
      }
    };
    relabel();
    observer.current = new MutationObserver(relabel);
    observer.current.observe(root, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
  }, []);
}
