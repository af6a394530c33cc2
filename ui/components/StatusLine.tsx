// A status one-liner (radio, APRS): always one line, ellipsized, so a long error (a raw ALSA
// message) never takes over a small screen; one tap shows the whole text over the page, another
// tap closes it (ui brief: "long messages are ellipsized, the whole text one tap away").

// With `short`, a page may show those few words instead where the line is narrow (CSS picks).

export function StatusLine(props: { text: string; short?: string; tone: string; open: boolean; onToggle: () => void; 'data-key': string }) {
  const key = { [`data-${props['data-key']}`]: true };
  return (
    <>
      <button type="button" class={`status-line ${props.tone}`} title={props.text} aria-expanded={props.open} onClick={props.onToggle} {...key}>
        {props.short ? (
          <>
            <span class="sl-long">{props.text}</span>
            <span class="sl-short">{props.short}</span>
          </>
        ) : (
          props.text
        )}
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
