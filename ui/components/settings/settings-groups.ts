import type { ComponentType } from 'preact';
import type { GroupProps } from './group-props';

// The settings groups as the API groups them, in the order a first evening needs them (where,
// what to track, who is operating, then the station's hardware). Each group's code is its own
// chunk (a dynamic import, esbuild code splitting): a settings page loads the group it shows and
// nothing else, so a 512 MB board never builds the whole settings page. Both settings pages
// (/settings and the low-power /settings, which is /lite/settings) list these same groups and
// open one from the URL's fragment (/settings#logbook).

export interface SettingsGroup {
  /** The fragment that opens it (/settings#radio), and its section's id. */
  id: string;
  /** Its button in the groups list: one or two words. */
  label: string;
  /** Its heading. */
  title: string;
  /** Older or natural names that open it too (#tracked, #callsign). */
  aliases?: readonly string[];
  load(): Promise<{ default: ComponentType<GroupProps> }>;
}

export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  { id: 'location', label: 'Location', title: 'Location', load: () => import('./groups/location') },
  { id: 'satellites', label: 'Satellites', title: 'Tracked satellites', aliases: ['tracked'], load: () => import('./groups/satellites') },
  { id: 'logbook', label: 'Logbook', title: 'Logbook', aliases: ['callsign'], load: () => import('./groups/logbook') },
  { id: 'radio', label: 'Radio', title: 'Radio (rigs and their links)', load: () => import('./groups/radio') },
  { id: 'rotator', label: 'Rotator', title: 'Antenna rotator', load: () => import('./groups/rotator') },
  { id: 'recording', label: 'Recording', title: 'Pass recording', aliases: ['recordings'], load: () => import('./groups/recording') },
  { id: 'aprs', label: 'APRS', title: 'APRS', load: () => import('./groups/aprs') },
  { id: 'hamlib', label: 'Hamlib', title: 'Hamlib (network rig and rotator control)', load: () => import('./groups/hamlib') },
  { id: 'access', label: 'Access', title: 'Operator access', load: () => import('./groups/access') },
  { id: 'display', label: 'Display', title: 'Display', load: () => import('./groups/display') },
  { id: 'passes', label: 'Pass filter', title: 'Pass filter', aliases: ['pass-filter'], load: () => import('./groups/passes') },
  { id: 'gps', label: 'GPS', title: 'GPS receiver', load: () => import('./groups/gps') },
  { id: 'profiles', label: 'Frequencies', title: 'Frequency profiles', aliases: ['frequencies'], load: () => import('./groups/profiles') },
  // Snapshots are the catalog's history (a refresh records one): one group.
  { id: 'catalog', label: 'Catalog', title: 'Catalog and snapshots', aliases: ['snapshots'], load: () => import('./groups/catalog') },
  { id: 'network', label: 'Network', title: 'Network', load: () => import('./groups/network') },
  { id: 'developer', label: 'Developer', title: 'Developer overrides', load: () => import('./groups/developer') },
];

/** The group a fragment names ("#radio", "#tracked"), or null. */
export function groupOf(hash: string): SettingsGroup | null {
  const id = decodeURIComponent(hash.replace(/^#/, '')).toLowerCase();
  return SETTINGS_GROUPS.find((g) => g.id === id || g.aliases?.includes(id)) ?? null;
}
