import { staleness } from '../lib/stale';
import type { Poll } from './usePoll';
import { age } from '../lib/time';

/** Says when the data shown is old or the appliance is not answering; nothing while all is well. */
export function StaleBanner(props: { receivedAt: number; offline: boolean; error: string | null; now: number }) {
  const { receivedAt, offline, error, now } = props;
  const s = staleness(receivedAt, now, offline);
  if (!receivedAt && error) {
    return (
      <div class="banner bad" role="alert" data-stale="nodata">
        No data: {error}
      </div>
    );
  }
  if (s === 'fresh') return null;
  const old = age(now - receivedAt);
  if (s === 'reference') {
    return (
      <div class="banner bad" role="alert" data-stale="reference">
        Data is {old} old: pass times are for reference only
      </div>
    );
  }
  if (s === 'stale') {
    return (
      <div class="banner bad" role="alert" data-stale="stale">
        STALE: data is {old} old{offline ? ', the appliance is not answering' : ''}
      </div>
    );
  }
  return (
    <div class="banner warn" role="status" data-stale="late">
      Appliance not answering: showing data from {old} ago
    </div>
  );
}

/** How worrying an element age is: muted up to 3 days, warn up to 14, then bad (AOS times drift). */
export function elementTone(ageH: number | null | undefined): 'muted' | 'warn' | 'bad' {
  return ageH == null || ageH < 72 ? 'muted' : ageH < 14 * 24 ? 'warn' : 'bad';
}

/** Whole days once they are days old: the hours say nothing more and cost a small screen room. */
const elementAge = (h: number) => (h >= 72 ? `${Math.floor(h / 24)} d` : age(h * 3_600_000));

/** How old the orbital elements are: an operator refreshes before trusting AOS times. As a banner, a line of its own. */
export function ElementAge(props: { ageH: number | null | undefined; origin?: string; banner?: boolean }) {
  if (props.ageH == null) return null;
  const tone = elementTone(props.ageH);
  return (
    <span class={props.banner ? `banner ${tone}` : tone} role={props.banner ? 'alert' : undefined} data-element-age>
      elements {elementAge(props.ageH)} old{props.origin ? ` (${props.origin})` : ''}
      {tone === 'bad' && <span class="hint">: refresh before trusting AOS times</span>}
    </span>
  );
}

/** A page with no data yet: the reason if the appliance did not answer, else a plain wait. */
export function Waiting(props: { class: string; poll: Poll<unknown>; now: number }) {
  const { poll } = props;
  return (
    <div class={props.class}>
      <StaleBanner receivedAt={poll.receivedAt} offline={poll.offline} error={poll.error} now={props.now} />
      <p class="waiting">Waiting for the appliance…</p>
    </div>
  );
}
