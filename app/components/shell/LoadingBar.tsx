import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

// SPEC §2: a loading bar during page loads, shown only after 200 ms (throttle) and
// filling over 2000 ms (duration) while the next page loads.
export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 2000;

export function LoadingBar() {
  const busy = useNavigation().state !== 'idle';
  // Becomes visible only once a load has lasted the throttle; fades out shortly after it ends.
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const t = busy
      ? setTimeout(() => setVisible(true), LOADING_BAR_THROTTLE_MS)
      : setTimeout(() => setVisible(false), 300);
    return () => clearTimeout(t);
  }, [busy]);
  const phase = !visible ? 'idle' : busy ? 'running' : 'done';

  return (
    <div
      className="loading-bar"
      data-phase={phase}
      style={{ '--loading-duration': `${LOADING_BAR_DURATION_MS}ms` } as React.CSSProperties}
      role="progressbar"
      aria-label="Загрузка страницы"
      aria-hidden={phase === 'idle'}
    />
  );
}
