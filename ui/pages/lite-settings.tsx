import { mount } from '../components/mount';
import { NightToggle } from '../components/NightToggle';
import { SettingsHub } from '../components/settings/SettingsHub';
import { LockBadge, useAccess } from '../components/settings/AccessSection';
import './lite-settings.css';

// /lite/settings, and /settings on a low-power board (spec part 1): the tracked satellites
// first, as the spec asks, and every other group one tap away, each loaded only when opened.

function Page() {
  const access = useAccess();
  return (
    <div class="lite-settings">
      <header class="row">
        <a class="btn" href="/lite">
          ← Lite
        </a>
        <h1>Settings</h1>
        <LockBadge access={access.data} />
        <NightToggle />
      </header>
      <SettingsHub access={access} fallback="satellites" />
    </div>
  );
}

mount(Page);
