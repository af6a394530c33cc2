import type { ComponentChildren } from 'preact';
import './shell.css';

const NAV: Array<[string, string]> = [
  ['/', 'Home'],
  ['/lite', 'Lite'],
  ['/radio', 'Radio'],
  ['/aprs', 'APRS'],
  ['/settings', 'Settings'],
];

export function Shell(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="shell">
      <header>
        <strong>satstation</strong>
        <nav>
          {NAV.map(([href, label]) => (
            <a href={href} key={href}>
              {label}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <h1>{props.title}</h1>
        {props.children}
      </main>
    </div>
  );
}
