import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { App } from './App';

// The admin app's entry. Material UI's styles are <style> elements made at run time: each carries
// the nonce the server put in this answer's Content-Security-Policy (server/admin-app.server.ts),
// so the policy needs no 'unsafe-inline'.
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? undefined;
const cache = createCache({ key: 'ra', prepend: true, ...(nonce && !nonce.startsWith('__') ? { nonce } : {}) });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <CacheProvider value={cache}>
      <BrowserRouter basename="/admin">
        <App />
      </BrowserRouter>
    </CacheProvider>
  </StrictMode>,
);
