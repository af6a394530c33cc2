import { constants, type SatRec } from 'satellite.js';

// SGP4 over records packed in a Float64Array (issue 36). satellite.js keeps each satellite's
// initialised record as an object of ~100 numeric fields, every one a boxed number on V8's heap
// (~15k objects the collector walks at every mark for the bundled catalogue), and answers each
// call with three fresh objects. Here satellite.js still initialises the record (sgp4init, its
// checks and the deep-space set-up); `packSatrec` copies what propagation reads into a slab, and
// `sgp4Packed` is the propagation step of Vallado et al. (AIAA 2006-6753, "Revisiting Spacetrack
// Report #3") reading that slab and writing the state into the caller's scratch: nothing is
// allocated. Operations are in the reference's order so results match satellite.js's `sgp4` to
// the last bit (test/orbit/sgp4-packed.test.ts compares them over the catalogue, deep-space and
// resonant orbits included).
//
// One difference in work, not in answers: satellite.js's resonance integrator (dspace) steps from
// the epoch in 720 min steps at every call (sgp4 never stores its state back), so each call on a
// resonant orbit (GEO, Molniya, AO-10) costs |tsince| / 720 min steps: 200 for elements 100 days
// old, where a pass search makes thousands of calls. Every step depends only on the one before,
// so the state at step k is the same bits however it was reached: the record keeps the last
// call's state (atime, xli, xni) and the state one step nearer the epoch (the checkpoint, for a
// search that steps back across a step boundary), and a call resumes from the furthest of epoch,
// checkpoint and last state that does not lie beyond tsince. A record is written only there.

const { earthRadius, j2, j3oj2, pi, twoPi, vkmpersec, x2o3, xke } = constants;

/**
 * Word offsets of a packed record, named after the satrec fields they hold (esbuild inlines each
 * use; the enum's runtime object drives `packSatrec`).
 */
enum W {
  // flags: method 'd' and operation mode 'a' as 0/1; isimp 0/1 and irez 0/1/2 as they are
  deep,
  afspc,
  isimp,
  irez,
  // secular terms (all orbits)
  mo, mdot, argpo, argpdot, nodeo, nodedot, nodecf, cc1, bstar, cc4, cc5, t2cof, t3cof, t4cof, t5cof,
  omgcof, eta, xmcof, delmo, d2, d3, d4, sinmao, no, ecco, inclo,
  // long- and short-period terms (near-Earth constants; deep-space orbits recompute them per call)
  aycof, xlcof, con41, x1mth2, x7thm1,
  // deep-space secular and resonance terms (dspace)
  d2201, d2211, d3210, d3222, d4410, d4422, d5220, d5232, d5421, d5433,
  dedt, del1, del2, del3, didt, dmdt, dnodt, domdt, gsto, xfact, xlamo, atime, xli, xni,
  // the integrator's checkpoint: its state one step nearer the epoch than (atime, xli, xni), or 0
  catime, cxli, cxni,
  // lunar-solar periodics (dpper)
  e3, ee2, peo, pgho, pho, pinco, plo, se2, se3, sgh2, sgh3, sgh4, sh2, sh3, si2, si3, sl2, sl3, sl4,
  xgh2, xgh3, xgh4, xh2, xh3, xi2, xi3, xl2, xl3, xl4, zmol, zmos,
  size,
}

/** Float64 words per packed record. */
export const SGP4_WORDS: number = W.size;

/** The record's fields in word order: what a record kept on disk (orbit/satrec-file.ts) must have been packed with. */
export const SGP4_LAYOUT: string = Object.keys(W)
  .filter((k) => Number.isNaN(Number(k)))
  .join(',');

/** The satrec's own numeric fields, each with its offset (every member but the two converted flags). */
const COPIED: readonly (readonly [string, number])[] = Object.entries(W).filter(
  (e): e is [string, number] => typeof e[1] === 'number' && e[1] > W.afspc && e[1] < W.size,
);

/** Copies what propagation reads from an initialised satrec into slab[base .. base + SGP4_WORDS). */
export function packSatrec(rec: SatRec, slab: Float64Array, base: number): void {
  slab[base + W.deep] = rec.method === 'd' ? 1 : 0;
  slab[base + W.afspc] = rec.operationmode === 'a' ? 1 : 0;
  const fields = rec as unknown as Record<string, number | undefined>;
  for (const [name, off] of COPIED) slab[base + off] = fields[name] ?? 0;
}

/** Error codes, satellite.js's SatRecError's values; DECAYED also for the community decay check. */
export const SGP4_OK = 0;
export const SGP4_DECAYED = 6;

// Deep-space resonance constants (dspace) and lunar-solar constants (dpper).
const FASX2 = 0.13130908;
const FASX4 = 2.8843198;
const FASX6 = 0.37448087;
const G22 = 5.7686396;
const G32 = 0.95240898;
const G44 = 1.8014998;
const G52 = 1.050833;
const G54 = 4.4108898;
const RPTIM = 4.37526908801129966e-3;
const STEPP = 720.0;
const STEPN = -720.0;
const STEP2 = 259200.0;
const ZNS = 1.19459e-5;
const ZES = 0.01675;
const ZNL = 1.5835218e-4;
const ZEL = 0.0549;
/** The inclination's divide-by-zero guard (sgp4fix). */
const TEMP4 = 1.5e-12;

/**
 * The state at tsince minutes from the epoch of the record at slab[base]: position (km) into
 * out[o..o+2], velocity (km/s) into out[o+3..o+5], TEME. Returns SGP4_OK, an SGP4 error code
 * (1–4, 6), or SGP4_DECAYED when the community decay check flags the record (a tempa ≤ 0, which
 * satellite.js's propagate reports as decayed: SGP4 itself still answers such records).
 */
export function sgp4Packed(s: Float64Array, b: number, tsince: number, out: Float64Array, o = 0): number {
  const t = tsince;
  const deep = s[b + W.deep] === 1;
  // ------------- secular gravity and atmospheric drag -------------
  const xmdf = s[b + W.mo] + s[b + W.mdot] * t;
  const argpdf = s[b + W.argpo] + s[b + W.argpdot] * t;
  const nodedf = s[b + W.nodeo] + s[b + W.nodedot] * t;
  let argpm = argpdf;
  let mm = xmdf;
  const t2 = t * t;
  let nodem = nodedf + s[b + W.nodecf] * t2;
  let tempa = 1.0 - s[b + W.cc1] * t;
  let tempe = s[b + W.bstar] * s[b + W.cc4] * t;
  let templ = s[b + W.t2cof] * t2;
  if (s[b + W.isimp] !== 1) {
    const delomg = s[b + W.omgcof] * t;
    const delmtemp = 1.0 + s[b + W.eta] * Math.cos(xmdf);
    const delm = s[b + W.xmcof] * (delmtemp * delmtemp * delmtemp - s[b + W.delmo]);
    const temp = delomg + delm;
    mm = xmdf + temp;
    argpm = argpdf - temp;
    const t3 = t2 * t;
    const t4 = t3 * t;
    tempa = tempa - s[b + W.d2] * t2 - s[b + W.d3] * t3 - s[b + W.d4] * t4;
    tempe += s[b + W.bstar] * s[b + W.cc5] * (Math.sin(mm) - s[b + W.sinmao]);
    templ = templ + s[b + W.t3cof] * t3 + t4 * (s[b + W.t4cof] + t * s[b + W.t5cof]);
  }
  const no = s[b + W.no];
  let nm = no;
  let em = s[b + W.ecco];
  let inclm = s[b + W.inclo];
  if (deep) {
    // ------------- deep-space secular effects and resonances (dspace) -------------
    const theta = (s[b + W.gsto] + t * RPTIM) % twoPi;
    em += s[b + W.dedt] * t;
    inclm += s[b + W.didt] * t;
    argpm += s[b + W.domdt] * t;
    nodem += s[b + W.dnodt] * t;
    mm += s[b + W.dmdt] * t;
    const irez = s[b + W.irez];
    if (irez !== 0) {
      let atime = s[b + W.atime];
      let xni = s[b + W.xni];
      let xli = s[b + W.xli];
      if (atime === 0.0 || t * atime <= 0.0 || Math.abs(t) < Math.abs(atime)) {
        const catime = s[b + W.catime];
        if (catime !== 0.0 && t * catime > 0.0 && Math.abs(t) >= Math.abs(catime)) {
          atime = catime;
          xni = s[b + W.cxni];
          xli = s[b + W.cxli];
        } else {
          atime = 0.0;
          xni = no;
          xli = s[b + W.xlamo];
        }
      }
      const delt = t > 0.0 ? STEPP : STEPN;
      const xfact = s[b + W.xfact];
      let xndt = 0;
      let xnddt = 0;
      let xldot = 0;
      let ft = 0;
      for (;;) {
        if (irez !== 2) {
          const del1 = s[b + W.del1];
          const del2 = s[b + W.del2];
          const del3 = s[b + W.del3];
          xndt = del1 * Math.sin(xli - FASX2) + del2 * Math.sin(2.0 * (xli - FASX4)) + del3 * Math.sin(3.0 * (xli - FASX6));
          xldot = xni + xfact;
          xnddt = del1 * Math.cos(xli - FASX2) + 2.0 * del2 * Math.cos(2.0 * (xli - FASX4)) + 3.0 * del3 * Math.cos(3.0 * (xli - FASX6));
          xnddt *= xldot;
        } else {
          const xomi = s[b + W.argpo] + s[b + W.argpdot] * atime;
          const x2omi = xomi + xomi;
          const x2li = xli + xli;
          xndt =
            s[b + W.d2201] * Math.sin(x2omi + xli - G22) +
            s[b + W.d2211] * Math.sin(xli - G22) +
            s[b + W.d3210] * Math.sin(xomi + xli - G32) +
            s[b + W.d3222] * Math.sin(-xomi + xli - G32) +
            s[b + W.d4410] * Math.sin(x2omi + x2li - G44) +
            s[b + W.d4422] * Math.sin(x2li - G44) +
            s[b + W.d5220] * Math.sin(xomi + xli - G52) +
            s[b + W.d5232] * Math.sin(-xomi + xli - G52) +
            s[b + W.d5421] * Math.sin(xomi + x2li - G54) +
            s[b + W.d5433] * Math.sin(-xomi + x2li - G54);
          xldot = xni + xfact;
          xnddt =
            s[b + W.d2201] * Math.cos(x2omi + xli - G22) +
            s[b + W.d2211] * Math.cos(xli - G22) +
            s[b + W.d3210] * Math.cos(xomi + xli - G32) +
            s[b + W.d3222] * Math.cos(-xomi + xli - G32) +
            s[b + W.d5220] * Math.cos(xomi + xli - G52) +
            s[b + W.d5232] * Math.cos(-xomi + xli - G52) +
            2.0 *
              (s[b + W.d4410] * Math.cos(x2omi + x2li - G44) +
                s[b + W.d4422] * Math.cos(x2li - G44) +
                s[b + W.d5421] * Math.cos(xomi + x2li - G54) +
                s[b + W.d5433] * Math.cos(-xomi + x2li - G54));
          xnddt *= xldot;
        }
        if (Math.abs(t - atime) < STEPP) {
          ft = t - atime;
          break;
        }
        // The state this step leaves is the checkpoint once the loop ends.
        s[b + W.catime] = atime;
        s[b + W.cxli] = xli;
        s[b + W.cxni] = xni;
        xli += xldot * delt + xndt * STEP2;
        xni += xndt * delt + xnddt * STEP2;
        atime += delt;
      }
      s[b + W.atime] = atime;
      s[b + W.xli] = xli;
      s[b + W.xni] = xni;
      nm = xni + xndt * ft + xnddt * ft * ft * 0.5;
      const xl = xli + xldot * ft + xndt * ft * ft * 0.5;
      mm = irez !== 1 ? xl - 2.0 * nodem + 2.0 * theta : xl - nodem - argpm + theta;
      nm = no + (nm - no);
    }
  }
  if (nm <= 0.0) return 2;
  const am = (xke / nm) ** x2o3 * tempa * tempa;
  nm = xke / am ** 1.5;
  em -= tempe;
  if (em >= 1.0 || em < -0.001) return 1;
  if (em < 1.0e-6) em = 1.0e-6;
  mm += no * templ;
  let xlm = mm + argpm + nodem;
  nodem %= twoPi;
  argpm %= twoPi;
  xlm %= twoPi;
  mm = (xlm - argpm - nodem) % twoPi;

  // ------------- lunar-solar periodics (dpper) -------------
  let ep = em;
  let xincp = inclm;
  let argpp = argpm;
  let nodep = nodem;
  let mp = mm;
  let sinip = Math.sin(inclm);
  let cosip = Math.cos(inclm);
  let aycof = s[b + W.aycof];
  let xlcof = s[b + W.xlcof];
  let con41 = s[b + W.con41];
  let x1mth2 = s[b + W.x1mth2];
  let x7thm1 = s[b + W.x7thm1];
  if (deep) {
    let zm = s[b + W.zmos] + ZNS * t;
    let zf = zm + 2.0 * ZES * Math.sin(zm);
    let sinzf = Math.sin(zf);
    let f2 = 0.5 * sinzf * sinzf - 0.25;
    let f3 = -0.5 * sinzf * Math.cos(zf);
    const ses = s[b + W.se2] * f2 + s[b + W.se3] * f3;
    const sis = s[b + W.si2] * f2 + s[b + W.si3] * f3;
    const sls = s[b + W.sl2] * f2 + s[b + W.sl3] * f3 + s[b + W.sl4] * sinzf;
    const sghs = s[b + W.sgh2] * f2 + s[b + W.sgh3] * f3 + s[b + W.sgh4] * sinzf;
    const shs = s[b + W.sh2] * f2 + s[b + W.sh3] * f3;
    zm = s[b + W.zmol] + ZNL * t;
    zf = zm + 2.0 * ZEL * Math.sin(zm);
    sinzf = Math.sin(zf);
    f2 = 0.5 * sinzf * sinzf - 0.25;
    f3 = -0.5 * sinzf * Math.cos(zf);
    const sel = s[b + W.ee2] * f2 + s[b + W.e3] * f3;
    const sil = s[b + W.xi2] * f2 + s[b + W.xi3] * f3;
    const sll = s[b + W.xl2] * f2 + s[b + W.xl3] * f3 + s[b + W.xl4] * sinzf;
    const sghl = s[b + W.xgh2] * f2 + s[b + W.xgh3] * f3 + s[b + W.xgh4] * sinzf;
    const shll = s[b + W.xh2] * f2 + s[b + W.xh3] * f3;
    const pe = ses + sel - s[b + W.peo];
    const pinc = sis + sil - s[b + W.pinco];
    const pl = sls + sll - s[b + W.plo];
    let pgh = sghs + sghl - s[b + W.pgho];
    let ph = shs + shll - s[b + W.pho];
    xincp += pinc;
    ep += pe;
    const sinipd = Math.sin(xincp);
    const cosipd = Math.cos(xincp);
    if (xincp >= 0.2) {
      ph /= sinipd;
      pgh -= cosipd * ph;
      argpp += pgh;
      nodep += ph;
      mp += pl;
    } else {
      // Lyddane's modification at low inclination.
      const afspc = s[b + W.afspc] === 1;
      const sinop = Math.sin(nodep);
      const cosop = Math.cos(nodep);
      let alfdp = sinipd * sinop;
      let betdp = sinipd * cosop;
      const dalf = ph * cosop + pinc * cosipd * sinop;
      const dbet = -ph * sinop + pinc * cosipd * cosop;
      alfdp += dalf;
      betdp += dbet;
      nodep %= twoPi;
      if (nodep < 0.0 && afspc) nodep += twoPi;
      let xls = mp + argpp + cosipd * nodep;
      const dls = pl + pgh - pinc * nodep * sinipd;
      xls += dls;
      const xnoh = nodep;
      nodep = Math.atan2(alfdp, betdp);
      if (nodep < 0.0 && afspc) nodep += twoPi;
      if (Math.abs(xnoh - nodep) > pi) {
        if (nodep < xnoh) nodep += twoPi;
        else nodep -= twoPi;
      }
      mp += pl;
      argpp = xls - mp - cosipd * nodep;
    }
    if (xincp < 0.0) {
      xincp = -xincp;
      nodep += pi;
      argpp -= pi;
    }
    if (ep < 0.0 || ep > 1.0) return 3;
    // ------------- long-period periodics at the perturbed inclination -------------
    sinip = Math.sin(xincp);
    cosip = Math.cos(xincp);
    aycof = -0.5 * j3oj2 * sinip;
    xlcof = Math.abs(cosip + 1.0) > TEMP4 ? (-0.25 * j3oj2 * sinip * (3.0 + 5.0 * cosip)) / (1.0 + cosip) : (-0.25 * j3oj2 * sinip * (3.0 + 5.0 * cosip)) / TEMP4;
  }
  const axnl = ep * Math.cos(argpp);
  let temp = 1.0 / (am * (1.0 - ep * ep));
  const aynl = ep * Math.sin(argpp) + temp * aycof;
  const xl = mp + argpp + nodep + temp * xlcof * axnl;

  // ------------- Kepler's equation -------------
  const u = (xl - nodep) % twoPi;
  let eo1 = u;
  let tem5 = 9999.9;
  let sineo1 = 0;
  let coseo1 = 0;
  for (let ktr = 1; Math.abs(tem5) >= 1.0e-12 && ktr <= 10; ktr++) {
    sineo1 = Math.sin(eo1);
    coseo1 = Math.cos(eo1);
    tem5 = 1.0 - coseo1 * axnl - sineo1 * aynl;
    tem5 = (u - aynl * coseo1 + axnl * sineo1 - eo1) / tem5;
    if (Math.abs(tem5) >= 0.95) tem5 = tem5 > 0.0 ? 0.95 : -0.95;
    eo1 += tem5;
  }

  // ------------- short-period preliminary quantities -------------
  const ecose = axnl * coseo1 + aynl * sineo1;
  const esine = axnl * sineo1 - aynl * coseo1;
  const el2 = axnl * axnl + aynl * aynl;
  const pl = am * (1.0 - el2);
  if (pl < 0.0) return 4;
  const rl = am * (1.0 - ecose);
  const rdotl = (Math.sqrt(am) * esine) / rl;
  const rvdotl = Math.sqrt(pl) / rl;
  const betal = Math.sqrt(1.0 - el2);
  temp = esine / (1.0 + betal);
  const sinu = (am / rl) * (sineo1 - aynl - axnl * temp);
  const cosu = (am / rl) * (coseo1 - axnl + aynl * temp);
  let su = Math.atan2(sinu, cosu);
  const sin2u = (cosu + cosu) * sinu;
  const cos2u = 1.0 - 2.0 * sinu * sinu;
  temp = 1.0 / pl;
  const temp1 = 0.5 * j2 * temp;
  const temp2 = temp1 * temp;

  // ------------- short-period periodics -------------
  if (deep) {
    const cosisq = cosip * cosip;
    con41 = 3.0 * cosisq - 1.0;
    x1mth2 = 1.0 - cosisq;
    x7thm1 = 7.0 * cosisq - 1.0;
  }
  const mrt = rl * (1.0 - 1.5 * temp2 * betal * con41) + 0.5 * temp1 * x1mth2 * cos2u;
  if (mrt < 1.0) return SGP4_DECAYED;
  su -= 0.25 * temp2 * x7thm1 * sin2u;
  const xnode = nodep + 1.5 * temp2 * cosip * sin2u;
  const xinc = xincp + 1.5 * temp2 * cosip * sinip * cos2u;
  const mvt = rdotl - (nm * temp1 * x1mth2 * sin2u) / xke;
  const rvdot = rvdotl + (nm * temp1 * (x1mth2 * cos2u + 1.5 * con41)) / xke;

  // ------------- orientation vectors, position and velocity -------------
  const sinsu = Math.sin(su);
  const cossu = Math.cos(su);
  const snod = Math.sin(xnode);
  const cnod = Math.cos(xnode);
  const sini = Math.sin(xinc);
  const cosi = Math.cos(xinc);
  const xmx = -snod * cosi;
  const xmy = cnod * cosi;
  const ux = xmx * sinsu + cnod * cossu;
  const uy = xmy * sinsu + snod * cossu;
  const uz = sini * sinsu;
  const vx = xmx * cossu - cnod * sinsu;
  const vy = xmy * cossu - snod * sinsu;
  const vz = sini * cossu;
  out[o] = mrt * ux * earthRadius;
  out[o + 1] = mrt * uy * earthRadius;
  out[o + 2] = mrt * uz * earthRadius;
  out[o + 3] = (mvt * ux + rvdot * vx) * vkmpersec;
  out[o + 4] = (mvt * uy + rvdot * vy) * vkmpersec;
  out[o + 5] = (mvt * uz + rvdot * vz) * vkmpersec;
  // The community decay check (satellite.js's checkForDecay), after SGP4 answered.
  return tempa <= 0 ? SGP4_DECAYED : SGP4_OK;
}
