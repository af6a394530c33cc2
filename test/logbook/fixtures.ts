// QSO records for the logbook tests and the bench: a satellite QSO as the service would fill it.
import type { QsoRecord } from '../../src/logbook/schemas.js';

export function satQso(over: Partial<QsoRecord> = {}): QsoRecord {
  return {
    id: 'q0001',
    time_on: '2026-08-22T06:05:09.000Z',
    call: 'W1AW',
    their_grid: 'FN31pr',
    rst_sent: '59',
    rst_rcvd: '57',
    comment: 'first QSO via SO-50',
    sat_id: 'so-50',
    sat_name: 'SO-50',
    sat_mode: 'V/U',
    prop_mode: 'SAT',
    freq_mhz: 145.85,
    freq_rx_mhz: 436.795,
    band: '2m',
    band_rx: '70cm',
    mode: 'FM',
    submode: null,
    station_callsign: 'DL1ABC',
    my_gridsquare: 'JO62qm',
    push_state: 'pending',
    push_error: null,
    recording_id: null,
    recording_offset_s: null,
    ...over,
  };
}
