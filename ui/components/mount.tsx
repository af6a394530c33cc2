import { render, type ComponentType } from 'preact';
import { isNight } from '../lib/night';
import './base.css';

/** Renders a page: night mode first (no white flash at night), then the service worker for offline use. */
export function mount(Page: ComponentType) {
  document.documentElement.classList.toggle('night', isNight());
  const root = document.getElementById('app');
  if (root) render(<Page />, root);
  // Only in a secure context (localhost, https): on plain http over the LAN the polls' own
  // on-device copy keeps the last data.
  if ('serviceWorker' in navigator && window.isSecureContext) {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  }
}
