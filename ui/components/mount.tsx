import { render, type ComponentType } from 'preact';
import { isNight } from '../lib/night';
import './base.css';

/** How long a page waits for its first data before rendering without it. */
const FIRST_DATA_WAIT_MS = 400;

/**
 * Renders a page: night mode first (no white flash at night), then the service worker for
 * offline use. With `firstData` (a prefetch) the first render waits briefly for it, so a slow
 * CPU lays the page out once with data instead of twice.
 */
export function mount(Page: ComponentType, firstData?: Promise<unknown>) {
  document.documentElement.classList.toggle('night', isNight());
  const root = document.getElementById('app');
  const show = () => root && render(<Page />, root);
  if (firstData) {
    Promise.race([firstData.catch(() => {}), new Promise((r) => setTimeout(r, FIRST_DATA_WAIT_MS))]).then(show);
  } else show();
  // Only in a secure context (localhost, https): on plain http over the LAN the polls' own
  // on-device copy keeps the last data.
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  }
}
