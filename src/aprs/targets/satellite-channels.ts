// APRS-capable satellites: 1200 baud AFSK digipeaters, from the SatNOGS transmitter list of
// 2026 (shared/data/frequencies/satnogs-transmitters-active.json, "APRS"/"digipeater" entries at
// 1200 baud whose satellite is in the bundled catalog). Keyed by NORAD id so a refreshed catalog
// resolves them to its own sat_ids; a channel whose satellite is not in the catalog is not offered.
//
// path_default: ARISS is the generic satellite digipeater alias the ISS answers to and most APRS
// satellites accept; the operator can set another in settings.satellite_path.

export interface AprsChannel {
  norad_id: number;
  channel_id: string;
  channel_label: string;
  uplink_hz: number;
  downlink_hz: number;
  path_default: string;
}

export const APRS_SATELLITE_CHANNELS: readonly AprsChannel[] = [
  { norad_id: 25544, channel_id: 'iss-vhf', channel_label: 'ISS V/V APRS digipeater (RS0ISS)', uplink_hz: 145_825_000, downlink_hz: 145_825_000, path_default: 'ARISS' },
  { norad_id: 25544, channel_id: 'iss-uhf', channel_label: 'ISS U/U APRS (test, when active)', uplink_hz: 437_825_000, downlink_hz: 437_825_000, path_default: 'ARISS' },
  { norad_id: 26931, channel_id: 'no44-vhf', channel_label: 'NO-44 (PCSAT) V/V APRS digipeater', uplink_hz: 145_825_000, downlink_hz: 145_825_000, path_default: 'ARISS' },
  { norad_id: 40908, channel_id: 'lilacsat2-vhf', channel_label: 'LilacSat-2 APRS digipeater', uplink_hz: 144_390_000, downlink_hz: 144_390_000, path_default: 'ARISS' },
  { norad_id: 48274, channel_id: 'css-vhf', channel_label: 'CSS (Tianhe) V/V digipeater', uplink_hz: 145_825_000, downlink_hz: 145_825_000, path_default: 'ARISS' },
  { norad_id: 48274, channel_id: 'css-uhf', channel_label: 'CSS (Tianhe) U/U digipeater', uplink_hz: 437_550_000, downlink_hz: 437_550_000, path_default: 'ARISS' },
  { norad_id: 59112, channel_id: 'sonate2-vhf', channel_label: 'SONATE-2 V/V APRS digipeater', uplink_hz: 145_825_000, downlink_hz: 145_825_000, path_default: 'ARISS' },
];

/** Packet FM is wide enough that 1 kHz steps track Doppler closely; rigs step 1 kHz in FM easily. */
export const APRS_STEP_HZ = 1000;
