import { usePoll } from '../usePoll';
import type { Zone } from '../../lib/time';

/** The display timezone times on the settings pages are shown in (UTC until it is known). */
export function useZone(): Zone {
  const tz = usePoll<{ state: { display_timezone: string } }>('/api/v1/settings/timezone', 60_000);
  return { name: tz.data?.state.display_timezone ?? 'UTC' };
}
