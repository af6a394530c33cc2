import * as v from 'valibot';
import { hostName, udpPort } from '../util/net-rules.js';
import { badRequest } from '../util/errors.js';

// Hamlib network servers (issue 26): exactly the fields. Hamlib has no authentication,
// so both servers are off and bound to the loopback until the operator says otherwise; a network
// PTT needs its own switch on top of the station's transmit rules.

export const HamlibSettingsSchema = v.object({
  rigctld_enabled: v.boolean(),
  rigctld_port: udpPort(),
  rotctld_enabled: v.boolean(),
  rotctld_port: udpPort(),
  /** The local address both servers listen on: 127.0.0.1 keeps them on this machine; 0.0.0.0 is every interface. */
  bind_host: v.pipe(hostName(), v.minLength(1, 'must name a local address, e.g. 127.0.0.1')),
  allow_ptt: v.boolean(),
});
export type HamlibSettings = v.InferOutput<typeof HamlibSettingsSchema>;

export const defaultHamlibSettings = (): HamlibSettings => ({
  rigctld_enabled: false,
  rigctld_port: 4532,
  rotctld_enabled: false,
  rotctld_port: 4533,
  bind_host: '127.0.0.1',
  allow_ptt: false,
});

/** Loopback addresses: anything else exposes an unauthenticated control port to the network. */
export const isLoopback = (host: string) => /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host);

/** What the rotator's own settings say about where it finds a rotctld (it may be a client of one). */
export interface RotatorUplink {
  enabled: boolean;
  protocol: string;
  rotctld_host: string;
  rotctld_port: number;
}

/**
 * Cross-field rules of a merged settings body: a 400 naming the field, before anything is stored.
 * Our rotctld must not listen where the station's own rotator connects as a rotctld client: the
 * rotator would then drive itself in a loop.
 */
export function checkHamlibSettings(s: HamlibSettings, rotator: RotatorUplink): HamlibSettings {
  if (s.rigctld_enabled && s.rotctld_enabled && s.rigctld_port === s.rotctld_port) {
    throw badRequest(`rotctld_port must differ from rigctld_port (both ${s.rigctld_port})`, { field: 'rotctld_port' }, 'validation_failed');
  }
  if (s.rotctld_enabled && rotator.enabled && rotator.protocol === 'rotctld' && rotator.rotctld_port === s.rotctld_port && (isLoopback(rotator.rotctld_host) || rotator.rotctld_host === s.bind_host)) {
    throw badRequest(
      `rotctld_port ${s.rotctld_port} is where the station's rotator reaches its own rotctld (${rotator.rotctld_host}:${rotator.rotctld_port}): pick another port, e.g. 4534`,
      { field: 'rotctld_port' },
      'validation_failed',
    );
  }
  return s;
}
