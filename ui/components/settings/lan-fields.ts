import type { FieldSpec } from '../../lib/schema-form';

// The IC-705's LAN login as both the radio and the APRS settings carry it (Wi-Fi transport).
export const LAN_LOGIN_FIELDS: FieldSpec[] = [
  { name: 'wifi_host', label: 'Rig address', help: 'The IC-705’s address on your Wi-Fi (its WLAN settings show it), e.g. 192.168.4.20.' },
  { name: 'wifi_control_port', label: 'Control port', help: 'The radio’s “Control Port (UDP)”, 50001 unless changed; the CI-V and audio ports are learnt from the radio.' },
  { name: 'wifi_username', label: 'User name', help: 'A “Network User” of the radio’s remote settings.' },
  { name: 'wifi_password', label: 'Password', help: 'That user’s password; stored on this appliance only, never shown again.', secret: true },
];
