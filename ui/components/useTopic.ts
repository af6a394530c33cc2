import { useEffect, useState } from 'preact/hooks';
import { liveSocket, MIN_PERIOD_MS, type Topic } from '../lib/live-socket';

/**
 * A topic's newest data while the page's live socket is open, else null: for what a page adds
 * only when the station pushes it (the `live` samples over a snapshot), never polled.
 */
export function useTopic<T>(topic: Topic | null, periodMs = MIN_PERIOD_MS): T | null {
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    if (!topic) return;
    const socket = liveSocket();
    const off = [socket.subscribe(topic, (d) => setData(d as T), periodMs), socket.onOpen((open) => !open && setData(null))];
    return () => {
      for (const f of off) f();
      setData(null);
    };
  }, [topic, periodMs]);
  return data;
}
