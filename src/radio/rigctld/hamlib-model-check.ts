import type { HamlibModelList } from './hamlib-models.js';
import { mainLink, type RadioSettings, type RigLink } from '../settings.js';
import { badRequest } from '../../util/errors.js';

// The radio settings' Hamlib model, checked against the models Hamlib on this station knows,
// where the station can tell: a rig the station runs rigctld for, and Hamlib installed. Without
// Hamlib the setting is taken, and the rig's last_error says what is missing when it opens; a
// rigctld the operator runs (hamlib_address) drives its own model. The list is only asked for
// when a model needs checking, so the settings of an Icom never start rigctl.

/** 400 naming the field when a Hamlib rig's model is not one rigctl -l lists; the settings otherwise. */
export async function checkHamlibModels(s: RadioSettings, models: () => Promise<HamlibModelList>): Promise<RadioSettings> {
  const links: Array<[RigLink, string]> = [[mainLink(s), '']];
  if (s.uplink_rig) links.push([s.uplink_rig, 'uplink_rig.']);
  const asked = links.filter(([l]) => l.rig_model === 'hamlib' && !l.hamlib_address && l.hamlib_model > 0);
  if (asked.length === 0) return s;
  const list = await models();
  if (list.kind !== 'ok') return s;
  for (const [l, prefix] of asked) {
    if (list.items.some((m) => m.model === l.hamlib_model)) continue;
    throw badRequest(
      `Hamlib on this station has no rig model ${l.hamlib_model}: set ${prefix}hamlib_model to one it lists (GET /api/v1/radio/hamlib-models, or rigctl -l)`,
      { field: `${prefix}hamlib_model` },
      'unknown_hamlib_model',
    );
  }
  return s;
}
