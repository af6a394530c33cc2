// `npm run bench [filter]`: runs every suite, prints each figure beside its budget.
import { printTable, type Suite } from './harness.js';
import { coreSuite } from './core.bench.js';
import { orbitSuite } from './orbit.bench.js';
import { catalogSuite } from './catalog.bench.js';
import { guidanceSuite } from './guidance.bench.js';
import { stationSuite } from './station.bench.js';
import { robustnessSuite } from './robustness.bench.js';
import { civSuite } from './civ.bench.js';
import { radioSuite } from './radio.bench.js';
import { aprsSuite } from './aprs.bench.js';
import { aprsStationSuite } from './aprs-station.bench.js';
import { setLogLevel } from '../src/util/logger.js';

setLogLevel('silent');

// Suites register here, one per hot path.
const suites: Suite[] = [coreSuite, catalogSuite, orbitSuite, guidanceSuite, stationSuite, civSuite, radioSuite, aprsSuite, aprsStationSuite, robustnessSuite];

const filter = process.argv[2];
let allOk = true;
for (const s of suites) {
  if (filter && !s.name.includes(filter)) continue;
  const lines = await s.run();
  allOk = printTable(s.name, lines) && allOk;
}
console.log(allOk ? '\nall budgets met' : '\nSOME BUDGETS MISSED');
