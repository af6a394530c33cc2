// Debris and rocket bodies in a pass list, by catalogue name: nobody works "FREGAT DEB", and a
// full catalogue has many of them. A satellite with a frequency profile is a working radio even
// when its catalogue name is a rocket body's: RS-44 rides on its Breeze-KM upper stage and is
// catalogued as "RS-44 & BREEZE-KM R/B"; hiding it would hide a popular linear transponder.

/** DEB / DEBRIS and R/B as whole words, as the catalogues (CelesTrak, Space-Track) write them. */
const DEBRIS_NAME = /\b(DEB|DEBRIS)\b|\bR\/B\b/;

export interface NamedPass {
  name: string;
  frequencyRecommendation?: object | null;
}

/** True for debris and rocket bodies without a radio on board. */
export function isDebris(p: NamedPass): boolean {
  return DEBRIS_NAME.test(p.name) && !p.frequencyRecommendation;
}

/** The passes without debris and rocket bodies, unless they are asked for; and how many were left out. */
export function withoutDebris<P extends NamedPass>(passes: readonly P[], show: boolean): { items: readonly P[]; hidden: number } {
  if (show) return { items: passes, hidden: 0 };
  const items = passes.filter((p) => !isDebris(p));
  return { items, hidden: passes.length - items.length };
}
