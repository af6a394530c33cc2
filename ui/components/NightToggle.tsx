import { useState } from 'preact/hooks';
import { isNight, setNight } from '../lib/night';

/** Switches night mode (red on black) for this device. */
export function NightToggle(props: { class?: string }) {
  const [on, setOn] = useState(isNight);
  return (
    <button
      type="button"
      class={props.class}
      aria-pressed={on}
      title="Night mode: red on black, remembered on this device"
      onClick={() => {
        setNight(!on);
        setOn(!on);
      }}
    >
      {on ? 'Day' : 'Night'}
    </button>
  );
}
