// ADIF band enumeration (pure): which ADIF band a frequency lies in. Edges are inclusive, as
// the specification's table gives them. Kept in integer hertz so no edge depends on a float
// (144.000000 MHz read from a rig is 144000000 Hz exactly).
//
// Source: ADIF 3.1.4 specification, "Band Enumeration" (https://adif.org/314/ADIF_314.htm#Band_Enumeration),
// lower and upper frequencies in MHz as listed there.

interface AdifBand {
  band: string;
  lower_hz: number;
  upper_hz: number;
}

const MHZ = 1_000_000;
const b = (band: string, lowerMhz: number, upperMhz: number): AdifBand => ({ band, lower_hz: Math.round(lowerMhz * MHZ), upper_hz: Math.round(upperMhz * MHZ) });

/** In ascending frequency order; no two overlap. */
export const ADIF_BANDS: readonly AdifBand[] = [
  b('2190m', 0.1357, 0.1378),
  b('630m', 0.472, 0.479),
  b('560m', 0.501, 0.504),
  b('160m', 1.8, 2.0),
  b('80m', 3.5, 4.0),
  b('60m', 5.06, 5.45),
  b('40m', 7.0, 7.3),
  b('30m', 10.1, 10.15),
  b('20m', 14.0, 14.35),
  b('17m', 18.068, 18.168),
  b('15m', 21.0, 21.45),
  b('12m', 24.89, 24.99),
  b('10m', 28.0, 29.7),
  b('8m', 40, 45),
  b('6m', 50, 54),
  b('5m', 54.000001, 69.9),
  b('4m', 70, 71),
  b('2m', 144, 148),
  b('1.25m', 222, 225),
  b('70cm', 420, 450),
  b('33cm', 902, 928),
  b('23cm', 1240, 1300),
  b('13cm', 2300, 2450),
  b('9cm', 3300, 3500),
  b('6cm', 5650, 5925),
  b('3cm', 10000, 10500),
  b('1.25cm', 24000, 24250),
  b('6mm', 47000, 47200),
  b('4mm', 75500, 81000),
  b('2.5mm', 119980, 123000),
  b('2mm', 134000, 149000),
  b('1mm', 241000, 250000),
  b('submm', 300000, 7500000),
];

/** The ADIF band of a frequency in hertz, or null outside every amateur band (ADIF then has no BAND). */
export function adifBandOfHz(hz: number): string | null {
  if (!Number.isFinite(hz)) return null;
  const f = Math.round(hz);
  for (const x of ADIF_BANDS) {
    if (f < x.lower_hz) return null; // ascending: nothing further up can hold it
    if (f <= x.upper_hz) return x.band;
  }
  return null;
}

export const adifBandOfMhz = (mhz: number): string | null => adifBandOfHz(mhz * MHZ);
