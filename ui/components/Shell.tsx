import type { ComponentChildren } from 'preact';
import { NightToggle } from './NightToggle';

const NAV: Array<[string, string]> = [
  ['/', 'Station'],
  ['/lite', 'Lite'],
  ['/kiosk-rotator', 'Kiosk'],
  ['/radio', 'Radio'],
  ['/aprs', 'APRS'],
  ['/recordings', 'Recordings'],
  ['/settings', 'Settings'],
];

/** The frame of the larger-screen pages: navigation, night mode, the page's title and status line. */
export function Shell(props: { title: string; status?: ComponentChildren; children?: ComponentChildren }) {
  const here = location.pathname.replace(/\/+$/, '') || '/';
  return (
    <div class="shell">
      <header>
        <strong>satstation</strong>
        <nav aria-label="Pages">
          {NAV.map(([href, label]) => (
            <a href={href} key={href} aria-current={href === here ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <NightToggle />
      </header>
      <main>
        <div class="row" style="justify-content:space-between">
          <h1>{props.title}</h1>
          {props.status}
        </div>
        {props.children}
      </main>
    </div>
  );
}
