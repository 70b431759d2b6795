import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

// SPEC §2: a loading bar during page loads, shown only after 200 ms (throttle) and
// filling over 2000 ms (duration) while the next page loads.
export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 2000;

export function LoadingBar() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<'idle' | 'running' | 'done'>('idle');

  useEffect(() => {
    if (busy) {
      const t = setTimeout(() => setPhase('running'), LOADING_BAR_THROTTLE_MS);
      return () => clearTimeout(t);
    }
    setPhase((p) => (p === 'running' ? 'done' : 'idle'));
    const t = setTimeout(() => setPhase('idle'), 300);
    return () => clearTimeout(t);
  }, [busy]);

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
