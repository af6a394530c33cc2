// The command tables of rigctld and rotctld (Hamlib 4.5, tests/rigctl_parse.c and
// tests/rotctl_parse.c): each command's one-character name, long name, the labels of its
// arguments and of its values (the extended response prints "Label: value"), and whether it
// takes a VFO first when the client turned \set_vfo_opt on. A command in a table is one Hamlib
// knows; whether this station does it is the answering side's business.

export interface CommandSpec {
  /** The one-character name ('F', '_', '\x8b' for get_dcd), or null: long name only. */
  short: string | null;
  /** Hamlib's long name, the canonical name of the command ("set_freq"). */
  name: string;
  /** Labels of the arguments, in order (all required). */
  in: readonly string[];
  /** Labels of the values a get answers, in order; empty for a set. */
  out: readonly string[];
  /** Takes a VFO before its arguments when vfo_opt is on (Hamlib: not ARG_NOVFO). */
  vfo: boolean;
  /** Hamlib's ARG_OUT: in the normal response a success prints the values and no "RPRT 0". */
  answers: boolean;
}

/** flags: 'novfo' (ARG_NOVFO), 'out' (ARG_OUT without labelled values), 'rprt' (values but no ARG_OUT: "RPRT 0" follows them). */
type Row = [short: string | null, name: string, inLabels: string[], outLabels: string[], flags?: string];

function table(rows: Row[]): readonly CommandSpec[] {
  return rows.map(([short, name, inLabels, outLabels, flags = '']) => ({
    short,
    name,
    in: inLabels,
    out: outLabels,
    vfo: !flags.includes('novfo'),
    answers: !flags.includes('rprt') && (flags.includes('out') || outLabels.length > 0),
  }));
}

/** rigctld's commands. */
export const RIG_COMMANDS = table([
  ['F', 'set_freq', ['Frequency'], []],
  ['f', 'get_freq', [], ['Frequency']],
  ['M', 'set_mode', ['Mode', 'Passband'], []],
  ['m', 'get_mode', [], ['Mode', 'Passband']],
  ['I', 'set_split_freq', ['TX Frequency'], []],
  ['i', 'get_split_freq', [], ['TX Frequency']],
  ['X', 'set_split_mode', ['TX Mode', 'TX Passband'], []],
  ['x', 'get_split_mode', [], ['TX Mode', 'TX Passband']],
  ['K', 'set_split_freq_mode', ['TX Frequency', 'TX Mode', 'TX Passband'], []],
  ['k', 'get_split_freq_mode', [], ['TX Frequency', 'TX Mode', 'TX Passband']],
  ['S', 'set_split_vfo', ['Split', 'TX VFO'], []],
  ['s', 'get_split_vfo', [], ['Split', 'TX VFO']],
  ['N', 'set_ts', ['Tuning Step'], []],
  ['n', 'get_ts', [], ['Tuning Step']],
  ['L', 'set_level', ['Level', 'Level Value'], []],
  ['l', 'get_level', ['Level'], ['Level Value']],
  ['U', 'set_func', ['Func', 'Func Status'], []],
  ['u', 'get_func', ['Func'], ['Func Status']],
  ['P', 'set_parm', ['Parm', 'Parm Value'], [], 'novfo'],
  ['p', 'get_parm', ['Parm'], ['Parm Value'], 'novfo'],
  ['G', 'vfo_op', ['Mem/VFO Op'], []],
  ['g', 'scan', ['Scan Fct', 'Scan Channel'], []],
  ['A', 'set_trn', ['Transceive'], [], 'novfo'],
  ['a', 'get_trn', [], ['Transceive'], 'novfo'],
  ['R', 'set_rptr_shift', ['Rptr Shift'], []],
  ['r', 'get_rptr_shift', [], ['Rptr Shift']],
  ['O', 'set_rptr_offs', ['Rptr Offset'], []],
  ['o', 'get_rptr_offs', [], ['Rptr Offset']],
  ['C', 'set_ctcss_tone', ['CTCSS Tone'], []],
  ['c', 'get_ctcss_tone', [], ['CTCSS Tone']],
  ['D', 'set_dcs_code', ['DCS Code'], []],
  ['d', 'get_dcs_code', [], ['DCS Code']],
  ['\x90', 'set_ctcss_sql', ['CTCSS Sql'], []],
  ['\x91', 'get_ctcss_sql', [], ['CTCSS Sql']],
  ['\x92', 'set_dcs_sql', ['DCS Sql'], []],
  ['\x93', 'get_dcs_sql', [], ['DCS Sql']],
  ['V', 'set_vfo', ['VFO'], [], 'novfo'],
  ['v', 'get_vfo', [], ['VFO'], 'novfo'],
  ['T', 'set_ptt', ['PTT'], []],
  ['t', 'get_ptt', [], ['PTT']],
  ['E', 'set_mem', ['Memory#'], []],
  ['e', 'get_mem', [], ['Memory#']],
  ['B', 'set_bank', ['Bank'], []],
  ['_', 'get_info', [], ['Info'], 'novfo'],
  ['J', 'set_rit', ['RIT'], []],
  ['j', 'get_rit', [], ['RIT']],
  ['Z', 'set_xit', ['XIT'], []],
  ['z', 'get_xit', [], ['XIT']],
  ['Y', 'set_ant', ['Antenna', 'Option'], []],
  ['\x87', 'set_powerstat', ['Power Status'], [], 'novfo'],
  ['\x88', 'get_powerstat', [], ['Power Status'], 'novfo'],
  ['\x89', 'send_dtmf', ['Digits'], []],
  ['\x8a', 'recv_dtmf', [], ['Digits']],
  ['*', 'reset', ['Reset'], []],
  ['\x8b', 'get_dcd', [], ['DCD']],
  ['\x8d', 'set_twiddle', ['Timeout (secs)'], [], 'novfo'],
  ['\x8e', 'get_twiddle', [], ['Timeout (secs)'], 'novfo'],
  ['\x97', 'uplink', ['1=Sub, 2=Main'], [], 'novfo'],
  ['\x95', 'set_cache', ['Timeout (msecs)'], [], 'novfo'],
  ['\x96', 'get_cache', [], ['Timeout (msecs)'], 'novfo'],
  ['1', 'dump_caps', [], [], 'novfo'],
  ['3', 'dump_conf', [], [], 'novfo'],
  ['\x8f', 'dump_state', [], [], 'novfo+out'],
  ['\xf0', 'chk_vfo', [], ['ChkVFO'], 'novfo'],
  ['\xf2', 'set_vfo_opt', ['Status'], [], 'novfo'],
  ['\xf3', 'get_vfo_info', ['VFO'], ['Freq', 'Mode', 'Width', 'Split', 'SatMode'], 'novfo'],
  ['\xf5', 'get_rig_info', [], ['RigInfo'], 'novfo+out'],
  ['\xf4', 'get_vfo_list', [], ['VFOs'], 'novfo'],
  ['\xf6', 'get_modes', [], ['Modes'], 'novfo'],
  ['\xf9', 'get_clock', [], [], 'novfo'],
  ['\xf1', 'halt', [], [], 'novfo'],
  ['\x8c', 'pause', ['Seconds'], []],
  ['\xa1', 'get_separator', [], [], 'novfo'],
  // Hamlib's NET client asks before every set_mode and skips the set unless it reads "0"
  // (rig_set_mode, Hamlib 4.5): answered like rigctld, the value and then "RPRT 0".
  ['\xa2', 'set_lock_mode', ['Locked'], [], 'novfo'],
  ['\xa3', 'get_lock_mode', [], ['Locked'], 'novfo+rprt'],
  // Not Hamlib's: gpredict's plain "AOS"/"LOS" lines at a pass's start and end (gtk-rig-ctrl.c
  // check_aos_los). rigctld reads them as set_trn with a garbage argument (Hamlib#1494); here
  // they are commands of their own that a set-style "RPRT 0" acknowledges.
  [null, 'AOS', [], [], 'novfo'],
  [null, 'LOS', [], [], 'novfo'],
]);

/** rotctld's commands. */
export const ROT_COMMANDS = table([
  ['P', 'set_pos', ['Azimuth', 'Elevation'], []],
  ['p', 'get_pos', [], ['Azimuth', 'Elevation']],
  ['K', 'park', [], []],
  ['S', 'stop', [], []],
  ['R', 'reset', ['Reset'], []],
  ['M', 'move', ['Direction', 'Speed'], []],
  ['_', 'get_info', [], ['Info']],
  ['s', 'get_status', [], ['Status flags']],
  ['1', 'dump_caps', [], []],
  ['\x8f', 'dump_state', [], [], 'out'],
  ['\x8c', 'pause', ['Seconds'], []],
]).map((c) => ({ ...c, vfo: false })); // rotctld has no VFOs

/** The names that end the connection (rigctld and rotctld read 'q' and 'Q' before the table). */
export const QUIT_WORDS = new Set(['q', 'Q']);
