import { aprsSummary } from '../aprs/types.js';
import { radioControlSummary } from '../radio/types.js';
import { listenAll, type Subscribe } from '../util/listeners.js';
import type { StationService } from './station-service.js';

// The lite snapshot's radio and APRS lines follow the rig and the TNC themselves (a fault, a
// radio unplugged, a session's end), not only the routes that clear its cache. Before the pages
// took their news from the push hub, the cache's 15 s life brought such a change to the screen;
// now the lite topic is rebuilt only when told, so a change of what those lines say is told (once
// the cache's entries have expired: the spec names the routes that clear it, LiteService.changedOnExpiry).

/** What the two lines say, whatever the focus (the focus only picks between fields already here). */
export function liteLinesKey(s: StationService): string {
  const { radio, aprs } = s.deps;
  const target = aprs.previewTarget();
  return JSON.stringify([
    radioControlSummary(radio.settings().enabled, radio.runtime(), radio.session(), null),
    aprsSummary(aprs.settings(), aprs.runtime(), target, s.identity(), null),
    target.sat_id,
  ]);
}

/**
 * Calls `changed` when a notification leaves the lines saying something else; returns the
 * unsubscribe. The lines are read only while `followed()` (someone follows the lite news): the rig
 * notifies at every poll, and nobody to tell is no reason to build their key. A notification once
 * someone follows again counts as a change (what changed meanwhile was never compared).
 */
export function followLiteLines(key: () => string, news: readonly Subscribe[], changed: () => void, followed: () => boolean): () => void {
  let last: string | null = followed() ? key() : null;
  return listenAll(() => {
    if (!followed()) {
      last = null;
      return;
    }
    const k = key();
    if (k === last) return;
    last = k;
    changed();
  }, news);
}
