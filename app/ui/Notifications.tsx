import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';

// SPEC §4 Notification: shows for one second, then clears; slides down from the top.
export const NOTIFICATION_MS = 1000;

export interface Notice {
  title?: string;
  text: string;
}

const NotifyContext = createContext<(notice: Notice) => void>(() => {});

export function useNotify(): (notice: Notice) => void {
  return useContext(NotifyContext);
}

export function NotificationProvider({ children }: { children: React.ReactNode }) {
  const [notice, setNotice] = useState<(Notice & { key: number }) | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const notify = useCallback((n: Notice) => {
    clearTimeout(timer.current);
    setNotice({ ...n, key: Date.now() });
    timer.current = setTimeout(() => setNotice(null), NOTIFICATION_MS);
  }, []);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div className="notice-region" role="status" aria-live="polite">
        {notice ? (
          <div className="notice" key={notice.key}>
            {notice.title ? <strong className="notice__title">{notice.title}</strong> : null}
            <span>{notice.text}</span>
          </div>
        ) : null}
      </div>
    </NotifyContext.Provider>
  );
}
