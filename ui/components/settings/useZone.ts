import { usePoll } from '../usePoll';
import type { Zone } from '../../lib/time';

/**
 * The display timezone times are shown in (UTC until it is known): polled while the live socket
 * is down, else read from system state's settings block (the same setting) as it is pushed.
 */
export function useZone(): Zone {
  const tz = usePoll<{ state: { display_timezone: string } }>('/api/v1/settings/timezone', 60_000, undefined, {
    topic: 'system',
    from: (d) => ({ state: { display_timezone: (d as { settings: { display_timezone: string } }).settings.display_timezone } }),
  });
  return { name: tz.data?.state.display_timezone ?? 'UTC' };
}
