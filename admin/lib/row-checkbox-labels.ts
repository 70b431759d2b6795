import { useEffect, useRef } from 'react';

/**
 * react-admin's row checkboxes (Datagrid with bulk actions) put their «Выбрать эту запись» label on
 * MUI's wrapper <span>, where assistive technology ignores it (axe: aria-prohibited-attr), and
 * leave the <input> itself unlabelled. This moves each label onto its input, for rows rendered
 * now and later (paging, filtering). React does not set the attribute again while its value is
 * unchanged, so the move holds.
 */
export function useRowCheckboxLabels<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
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
    const observer = new MutationObserver(relabel);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return ref;
}
