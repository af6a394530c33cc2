import type { AprsRuntime } from './useAprs';

/**
 * The APRS error, said once, at the top of the page: one line (the TNC problem's summary, else the
 * error), and one tap opens the rest (the fix, else the whole text). The connect button's ✗ line
 * and the bar's badge leave it to this; the TNC card keeps the sidecar's state, its next try and
 * the output.
 */
export function ErrorBanner({ rt }: { rt: AprsRuntime }) {
  const p = rt.sidecar_problem;
  return (
    <details class="banner bad aprs-error" role="alert" data-last-error data-tnc-problem={p?.kind}>
      <summary>APRS error: {p?.summary ?? rt.last_error}</summary>
      <p class="aprs-error-more">{p?.fix ?? rt.last_error}</p>
    </details>
  );
}
