// A status one-liner (radio, APRS): always one line, ellipsized, so a long error (a raw ALSA
// message) never takes over a small screen; one tap shows the whole text over the page, another
// tap closes it (ui brief: "long messages are ellipsized, the whole text one tap away").

export function StatusLine(props: { text: string; tone: string; open: boolean; onToggle: () => void; 'data-key': string }) {
  const key = { [`data-${props['data-key']}`]: true };
  return (
    <>
      <button type="button" class={`status-line ${props.tone}`} title={props.text} aria-expanded={props.open} onClick={props.onToggle} {...key}>
        {props.text}
      </button>
      {props.open && (
        <div class={`status-full ${props.tone}`} role="status" data-line-full onClick={props.onToggle}>
          {props.text}
          <span class="muted"> (tap to close)</span>
        </div>
      )}
    </>
  );
}
