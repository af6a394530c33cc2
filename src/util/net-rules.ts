import * as v from 'valibot';

// Rules for settings that name something on the network (a KISS TNC, an APRS-IS server, a rig's
// LAN address and login): one definition each, shared by the radio and APRS settings.

export const hostName = () =>
  v.pipe(v.string(), v.maxLength(253), v.regex(/^(|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]+\]?)$/, 'must be a host name or address'));
export const printableText = (max: number) => v.pipe(v.string(), v.maxLength(max), v.regex(/^[\x20-\x7e]*$/, 'must be printable ASCII'));
export const udpPort = () => v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535));

/** The Icom LAN protocol's control port as the IC-705 ships (Menu › SET › WLAN Set › Remote Settings). */
export const ICOM_LAN_CONTROL_PORT = 50001;

/** The rig's LAN login fields, as both the radio and the APRS settings carry them. */
export const lanLoginFields = () => ({
  wifi_host: hostName(),
  // The IC-705 takes up to 16 characters for each (the LAN login packet's fields are 16 bytes).
  wifi_username: printableText(16),
  wifi_password: printableText(16),
  wifi_control_port: udpPort(),
});

/** Empty, or "host:port" of a TCP service (a rigctld the operator runs); an IPv6 address goes in brackets. */
export const hostAndPort = () =>
  v.pipe(
    v.string(),
    v.maxLength(260),
    v.regex(/^(|([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5})$/, 'must be empty or host:port (e.g. 192.168.1.20:4532)'),
    v.check((s) => s === '' || (Number(s.slice(s.lastIndexOf(':') + 1)) >= 1 && Number(s.slice(s.lastIndexOf(':') + 1)) <= 65535), 'the port must be 1–65535'),
  );

/** "host:port" split; the brackets of an IPv6 address dropped. */
export function splitHostPort(s: string): { host: string; port: number } {
  const i = s.lastIndexOf(':');
  return { host: s.slice(0, i).replace(/^\[(.*)\]$/, '$1'), port: Number(s.slice(i + 1)) };
}
