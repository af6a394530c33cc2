import { getAt, onlyWhen, setAt, type FieldSpec } from '../../lib/schema-form';
import { LAN_LOGIN_FIELDS } from './lan-fields';

// The rig choice as the radio and APRS settings both offer it, and one radio's link as the radio
// settings carry it twice (the main rig at the root, a second one in uplink_rig). The API's values
// stay rigA, ft818, hamlib… (spec); the operator reads the radio's name, and whether it has been
// proven on a radio (the IC-705 only, so far).
export const RIG_LABELS: Readonly<Record<string, string>> = {
  rigA: 'Icom IC-705',
  rigB: 'Icom IC-9700 (not validated)',
  ft817: 'Yaesu FT-817 (not validated)',
  ft818: 'Yaesu FT-818 (not validated)',
  ft857: 'Yaesu FT-857 (not validated)',
  ft897: 'Yaesu FT-897 (not validated)',
  hamlib: 'Another radio, through Hamlib (not validated)',
};

export const rigModelField = (help: string, name = 'rig_model'): FieldSpec => ({ name, label: 'Rig', help, optionLabels: RIG_LABELS });

/** What the show rules read of a link. */
interface LinkChoice {
  rig_model?: string;
  transport?: string;
  hamlib_address?: string;
}

/** The link at `prefix` ("" the main rig, "uplink_rig." the uplink radio) in the form's values. */
const linkAt = (values: unknown, prefix: string): LinkChoice => ((prefix ? getAt(values, prefix.slice(0, -1)) : values) ?? {}) as LinkChoice;

const ICOMS = ['rigA', 'rigB'];
/** The IC-705's LAN session is the one Wi-Fi link (the API's rule: transport wifi is rigA only). */
const overWifi = (l: LinkChoice) => l.rig_model === 'rigA' && l.transport === 'wifi';
/** A rigctld the operator runs brings its own radio, port and speed. */
const externalRigctld = (l: LinkChoice) => l.rig_model === 'hamlib' && !!l.hamlib_address;

/** The fields `prefix`'s link uses, each shown only while it applies to the link's model and transport. */
export function linkFields(prefix: string, modelHelp: string): FieldSpec[] {
  const when = (test: (l: LinkChoice) => boolean) => (values: unknown) => test(linkAt(values, prefix));
  const at = (fields: readonly FieldSpec[]) => fields.map((f) => ({ ...f, name: prefix + f.name }));
  return [
    rigModelField(modelHelp, `${prefix}rig_model`),
    ...onlyWhen(when((l) => l.rig_model === 'rigA'), at([{ name: 'transport', help: 'usb: CI-V on a USB serial port. wifi: the IC-705’s LAN session (the radio’s WLAN remote settings).' }])),
    ...onlyWhen(when(overWifi), at(LAN_LOGIN_FIELDS)),
    ...onlyWhen(
      when((l) => l.rig_model === 'hamlib'),
      at([
        {
          name: 'hamlib_address',
          label: 'rigctld address',
          help: 'Empty: the station runs Hamlib’s rigctld itself for this radio, on the serial port below. host:port (e.g. 192.168.1.30:4532): a rigctld you run, with its own model and port.',
        },
      ]),
    ),
    ...onlyWhen(
      when((l) => l.rig_model === 'hamlib' && !l.hamlib_address),
      at([{ name: 'hamlib_model', label: 'Hamlib model', help: 'Hamlib’s number for the radio, as “rigctl -l” lists it: e.g. 1035 FT-991, 2014 TS-2000, 3068 IC-9100, 3044 IC-910.' }]),
    ),
    ...onlyWhen(
      when((l) => !overWifi(l) && !externalRigctld(l)),
      at([
        { name: 'serial_device', help: "The radio's CI-V or CAT USB port, e.g. /dev/ttyACM0 or a stable /dev/serial/by-id/… name (the Radio page lists the ports found)." },
        { name: 'baud_rate', help: 'As set in the radio’s menu: the Icoms 4800–115200 (CI-V USB baud), the FT-817/818/857/897 4800, 9600 or 38400 (CAT rate).' },
      ]),
    ),
    ...onlyWhen(when((l) => ICOMS.includes(l.rig_model ?? '')), at([{ name: 'civ_address', label: 'CI-V address', help: '0xA4 for the IC-705, 0xA2 for the IC-9700 (factory settings).' }])),
  ];
}

/**
 * A second radio as "two radios" starts it (every field: the API takes uplink_rig whole from
 * null): an IC-705 on USB at the main rig's factory settings, its port still to be entered.
 */
export const UPLINK_RIG_START = {
  rig_model: 'rigA',
  transport: 'usb',
  serial_device: '',
  baud_rate: 19200,
  civ_address: '0xA4',
  hamlib_model: 0,
  hamlib_address: '',
  wifi_host: '',
  wifi_username: '',
  wifi_password: '',
  wifi_control_port: 50001,
} as const;

/** Both links with a model that has no Wi-Fi on USB: the transport field is hidden for it, and the API would refuse wifi. */
export function linksOnTheirTransport(draft: unknown): unknown {
  let out = draft;
  for (const prefix of ['', 'uplink_rig.']) {
    const l = linkAt(out, prefix);
    if (l.rig_model && l.rig_model !== 'rigA' && l.transport === 'wifi') out = setAt(out, `${prefix}transport`, 'usb');
  }
  return out;
}
