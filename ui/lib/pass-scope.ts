// Which satellites a pass list covers: the tracked set (lite settings), the pass filter's choice
// (/settings, what /passes applies by default, the kiosk's list) or the whole catalogue. With the
// filter at "All" its choice is the whole catalogue: offered once, as "All satellites".

import { counted } from './format';

export type PassScope = 'tracked' | 'filter' | 'all';

export interface PassFilterChoice {
  pass_profile: 'All' | 'IssOnly' | 'Favorites';
  favorites: string[];
}

export interface ScopeOption {
  scope: PassScope;
  label: string;
}

/** The choices, in order; the filter's only when it is not the whole catalogue already. */
export function scopeOptions(filter: PassFilterChoice | null | undefined, tracked: number | null): ScopeOption[] {
  const out: ScopeOption[] = [{ scope: 'tracked', label: tracked === null ? 'Tracked' : `Tracked (${tracked})` }];
  if (filter && filter.pass_profile !== 'All') out.push({ scope: 'filter', label: filter.pass_profile === 'IssOnly' ? 'ISS only (filter)' : `${counted(filter.favorites.length, 'favorite')} (filter)` });
  out.push({ scope: 'all', label: 'All satellites' });
  return out;
}

/** The scope in effect: the filter's is the whole catalogue's when the filter lets everything through. */
export function effectiveScope(scope: PassScope, filter: PassFilterChoice | null | undefined): PassScope {
  return scope === 'filter' && filter?.pass_profile === 'All' ? 'all' : scope;
}

/** The /passes query part for a scope (the filter's: nothing, /passes applies it); null while the tracked set is not known. */
export function scopeQuery(scope: PassScope, trackedIds: readonly string[] | null): string | null {
  if (scope === 'tracked') return trackedIds?.length ? `&sat_ids=${trackedIds.join(',')}` : null;
  return scope === 'all' ? '&include_all_sats=true' : '';
}
