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
