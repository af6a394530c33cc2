import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, errorText, getJson, takePrefetched } from '../lib/api';
import { load, save } from '../lib/persist';
import { liveSocket, type Topic } from '../lib/live-socket';

export interface Poll<T> {
  data: T | null;
  /**
   * Epoch ms the shown data was known current (0 before any): when it left the appliance, or
   * later while the live socket is open and has brought no news the data lacks.
   */
  receivedAt: number;
  /** Epoch ms the shown data itself arrived (to tell it from an answer the page got otherwise). */
  answeredAt: number;
  /** Why the last attempt failed, or null. */
  error: string | null;
  /** The appliance did not answer: what is shown is the last copy. */
  offline: boolean;
  /** Poll now (after a change the page made). */
  refresh(): void;
}

/**
 * Where a polled route's news comes from while the page's live socket is open (issue 35):
 * - `topic`: the topic's data is this route's body (or, through `from`, gives it): events replace the poll;
 * - `on`: these topics say the route's answer may have changed: it is asked again then, at once
 *   after a quiet spell, else once the gap since the last ask has passed (the poll's interval, held
 *   between 1 and 5 s: a burst of changes costs one request). With `key`, an event is news only
 *   when the part of the topic's data the route follows changed (a rig's every poll is not news to
 *   the serial port list).
 * Either way no timer runs while the socket is open; when it fails the poll resumes at its interval.
 */
export type LiveFeed<T> = { topic: Topic; from?: (data: unknown) => T; periodMs?: number } | { on: readonly Topic[]; key?: (topic: Topic, data: any) => unknown };

/** The gap between two asks a topic's news causes: the poll's interval, within these bounds. */
const ON_GAP_MS = { min: 1000, max: 5000 };
/** An answer from at most this long before the socket opened needs no asking again then. */
const FRESH_MS = 5000;
/** The least time between two saves of a topic's data to the device. */
const PERSIST_GAP_MS = 5000;

interface Kept<T> {
  data: T;
  receivedAt: number;
}

/**
 * A JSON route's answer, kept current: with `live`, by the page's live socket while it is open;
 * otherwise (and whenever the socket fails) by polling: one request in flight, the next one
 * `intervalMs` after the last answer, none while the page is hidden. A restarted station (a new
 * boot id) is asked again at once. With a `persistKey` the last answer is kept on the device, so
 * a reload while the appliance is unreachable still shows it, with its age.
 */
export function usePoll<T>(url: string | null, intervalMs: number, persistKey?: string, live?: LiveFeed<T>): Poll<T> {
  // A prefetched first answer counts as the first poll: the next waits its interval.
  const skipFirstTick = useRef(false);
  const [state, setState] = useState<Omit<Poll<T>, 'refresh' | 'answeredAt'>>(() => {
    const first = url ? takePrefetched<T>(url) : null;
    if (first) {
      skipFirstTick.current = true;
      if (persistKey && !first.fromCache) save('last:' + persistKey, { data: first.data, receivedAt: first.receivedAt });
      return { data: first.data, receivedAt: first.receivedAt, error: first.fromCache ? 'the appliance did not answer' : null, offline: first.fromCache };
    }
    const kept = persistKey ? load<Kept<T>>('last:' + persistKey) : null;
    return { data: kept ? kept.data : null, receivedAt: kept?.receivedAt ?? 0, error: null, offline: false };
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const run = useRef<() => void>(() => {});
  // The feed's shape is the effect's key (callers pass a fresh object each render); `from` is read at the event.
  const feed = useRef(live);
  /** News came that the answer shown does not have yet (an ask is due): it is not current. */
  const stale = useRef(false);
  feed.current = live;
  const feedKey = !live ? '' : 'topic' in live ? `topic:${live.topic}@${live.periodMs ?? ''}` : `on:${live.on.join(',')}`;
  const socket = live ? liveSocket() : null;

  useEffect(() => {
    if (!url) return;
    let alive = true;
    // A prefetched answer is as fresh as an ask now.
    let askedAt = skipFirstTick.current ? Date.now() : 0;
    let asking = false;
    let again = false;
    // Topic events taken so far: an answer to an ask that left before the latest of them is older
    // than what the socket brought (the socket carries every change in order; an answer may
    // overtake none of them), so it is not shown.
    let pushed = 0;
    let afterAsk = () => {};
    const schedule = () => {
      clearTimeout(timer.current);
      if (alive && intervalMs > 0 && !socket?.isOpen) timer.current = setTimeout(tick, intervalMs);
    };
    const tick = async () => {
      if (document.hidden && !socket?.isOpen) return schedule();
      askedAt = Date.now();
      asking = true;
      const pushedBefore = pushed;
      try {
        const a = await getJson<T>(url);
        if (!alive) return;
        if (pushed === pushedBefore) {
          stale.current = again;
          setState({ data: a.data, receivedAt: a.receivedAt, error: a.fromCache ? 'the appliance did not answer' : null, offline: a.fromCache });
          if (persistKey && !a.fromCache) save('last:' + persistKey, { data: a.data, receivedAt: a.receivedAt });
        }
      } catch (e) {
        if (!alive) return;
        const offline = e instanceof ApiError && e.status === 0;
        if (pushed === pushedBefore) setState((s) => ({ ...s, error: errorText(e), offline }));
      } finally {
        asking = false;
      }
      schedule();
      afterAsk();
    };
    const unfollow: Array<() => void> = [];
    let got = false;
    let followOn = () => {};
    if (socket && live) {
      if ('topic' in live) {
        let savedAt = 0;
        unfollow.push(
          socket.subscribe(live.topic, (d) => {
            if (!alive) return;
            got = true;
            pushed++;
            const f = feed.current;
            const data = (f && 'from' in f && f.from ? f.from(d) : d) as T;
            const receivedAt = Date.now();
            setState({ data, receivedAt, error: null, offline: false });
            // The device's copy is for a reload while offline: a few seconds old is as good, and
            // a radio tracking a pass changes several times a second.
            if (persistKey && receivedAt - savedAt >= PERSIST_GAP_MS) {
              savedAt = receivedAt;
              save('last:' + persistKey, { data, receivedAt });
            }
          }, live.periodMs),
        );
      } else {
        // A topic's first event after the socket opens, and the first of any fresh subscription
        // (LiveHandler's `state`), is its state, not news: news only to an answer from well before
        // then (the page polled while the socket was down).
        const first = new Set<Topic>();
        const keys = new Map<Topic, string>();
        const gap = Math.min(ON_GAP_MS.max, Math.max(ON_GAP_MS.min, intervalMs));
        const news = (t: Topic, d: unknown, state: boolean) => {
          if (!alive) return;
          const k = feed.current && 'key' in feed.current && feed.current.key ? JSON.stringify(feed.current.key(t, d) ?? null) : null;
          if (k !== null) {
            const same = keys.get(t) === k;
            keys.set(t, k);
            if (same) return;
          }
          if (!first.has(t) || state) {
            first.add(t);
            if (askedAt >= socket.openedAt - FRESH_MS) return;
          }
          stale.current = true;
          // An ask under way may have been answered before this change: one more after it.
          if (asking) return void (again = true);
          clearTimeout(timer.current);
          const wait = askedAt + gap - Date.now();
          if (wait <= 0) void tick();
          else timer.current = setTimeout(tick, wait);
        };
        afterAsk = () => {
          if (!again) return;
          again = false;
          clearTimeout(timer.current);
          timer.current = setTimeout(tick, gap);
        };
        // Followed once the first ask is under way (below): an open socket hands over a topic's state at once.
        followOn = () => {
          for (const t of live.on) unfollow.push(socket.subscribe(t, (d, state) => news(t, d, state)));
        };
        unfollow.push(socket.onOpen(() => first.clear()));
      }
      // Open: the socket carries the news, no poll runs. Failed: the poll resumes at its interval.
      unfollow.push(socket.onOpen((open) => (open ? clearTimeout(timer.current) : schedule())));
      unfollow.push(socket.onBoot(() => run.current()));
    }
    run.current = () => {
      clearTimeout(timer.current);
      tick();
    };
    // Asked once, unless a prefetch answered or the open socket already handed over the topic's data.
    if (skipFirstTick.current || got) schedule();
    else tick();
    skipFirstTick.current = false;
    followOn();
    const onVisible = () => !document.hidden && run.current();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      clearTimeout(timer.current);
      for (const u of unfollow) u();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [url, intervalMs, persistKey, feedKey]);

  const refresh = useCallback(() => run.current(), []);
  // While the socket is open what is shown is current as of the last frame heard (a quiet topic is
  // not an old one), unless news came that it does not have yet.
  const receivedAt = socket?.isOpen && state.receivedAt && !stale.current ? Math.max(state.receivedAt, socket.heardAt) : state.receivedAt;
  return { ...state, receivedAt, answeredAt: state.receivedAt, refresh };
}
