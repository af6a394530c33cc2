import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

// Dependencies point inward and never loop: checked on the import statements of src/ (type-only
// imports included, since they are how cycles creep in).

const SRC = resolve('src');
function tsFiles(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}
const files = tsFiles(SRC);
const graph = new Map<string, string[]>();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const deps: string[] = [];
  for (const m of text.matchAll(/(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/g)) deps.push(resolve(dirname(f), m[1].replace(/\.js$/, '.ts')));
  graph.set(rel(f), deps.filter((d) => files.includes(d)).map(rel));
}
function rel(p: string): string {
  return relative(SRC, p).split('\\').join('/');
}

function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let i = 0;
  const visit = (v: string) => {
    index.set(v, i);
    low.set(v, i++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c);
    }
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return out;
}

/** The code of a module without its comments (good enough for declarations: no regex or URL in a string starts a line). */
const code = (f: string) => readFileSync(join(SRC, f), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
/** The words of a module's file name: "answer-rot.ts" → answer, rot. */
const words = (f: string) => basename(f, '.ts').split('-');

const importsOf = (prefix: string) => [...graph].filter(([f]) => f.startsWith(prefix)).flatMap(([f, deps]) => deps.map((d) => [f, d] as const));

describe('architecture', () => {
  it('has no import cycles in src/', () => {
    assert.deepEqual(cycles(), []);
  });

  it('pure protocol code (radio/civ) and util import nothing outside themselves', () => {
    for (const dir of ['radio/civ/', 'util/']) {
      const out = importsOf(dir).filter(([, d]) => !d.startsWith(dir));
      assert.deepEqual(out, [], `${dir} reaches out`);
    }
  });

  it('only the composition root and the HTTP layer import http/', () => {
    const allowed = new Set(['app.ts', 'services.ts']);
    const out = [...graph].flatMap(([f, deps]) => (f.startsWith('http/') || allowed.has(f) ? [] : deps.filter((d) => d.startsWith('http/')).map((d) => `${f} → ${d}`)));
    assert.deepEqual(out, []);
  });

  // Floors, top to bottom: the composition root and http/; station/; the station's equipment
  // (radio/, aprs/, rotator/, hamlib/); the sky (catalog/, orbit/, guidance/); the ground (util/, store/,
  // links/ for outside links, ham/ for amateur-radio rules every area shares). Arrows only go down,
  // and sideways between equipment only through the offering area's API module.
  const GROUND = ['util/', 'store/', 'links/', 'ham/'];
  // hamlib/ is the network front of the rig and the rotator: it reaches them only through the
  // interfaces it declares itself (hamlib/station-equipment.ts), which the composition root fills.
  const EQUIPMENT = ['radio/', 'aprs/', 'rotator/', 'hamlib/', 'recording/'];
  const SKY = ['catalog/', 'orbit/', 'guidance/'];

  it('the ground imports only the ground', () => {
    const out = [...graph].flatMap(([f, deps]) => (GROUND.some((g) => f.startsWith(g)) ? deps.filter((d) => !GROUND.some((g) => d.startsWith(g))).map((d) => `${f} → ${d}`) : []));
    assert.deepEqual(out, []);
  });

  it('equipment and sky never import the station; the sky never imports equipment', () => {
    const out = [...graph].flatMap(([f, deps]) => {
      const below = [...EQUIPMENT, ...SKY, ...GROUND].some((a) => f.startsWith(a));
      const sky = SKY.some((a) => f.startsWith(a));
      return deps.filter((d) => (below && d.startsWith('station/')) || (sky && EQUIPMENT.some((e) => d.startsWith(e)))).map((d) => `${f} → ${d}`);
    });
    assert.deepEqual(out, []);
  });

  // The station composes what the areas show (datasets.ts's way): each input is as narrow as what it
  // reads, so no station code can read, or come to depend on, another area's settings file.
  it('the station and the logbook\'s view of it never take the settings stores whole (stores.ts, Stores)', () => {
    const out = [...graph].flatMap(([f, deps]) => {
      if (!f.startsWith('station/') && f !== 'logbook-station.ts') return [];
      const text = readFileSync(join(SRC, f), 'utf8');
      return [
        ...deps.filter((d) => d === 'stores.ts').map((d) => `${f} → ${d}`),
        ...(/\bStores\b|\bstores\.\w/.test(text) ? [`${f} names the Stores bag`] : []),
      ];
    });
    assert.deepEqual(out, []);
  });

  it('one equipment area reaches another only through its API module (radio/radio-api.ts, rotator/rotator-api.ts)', () => {
    const api = (d: string) => /^(radio\/radio-api|rotator\/rotator-api|aprs\/aprs-api)\.ts$/.test(d);
    const out = [...graph].flatMap(([f, deps]) => {
      const mine = EQUIPMENT.find((e) => f.startsWith(e));
      if (!mine) return [];
      return deps.filter((d) => EQUIPMENT.some((e) => e !== mine && d.startsWith(e)) && !api(d)).map((d) => `${f} → ${d}`);
    });
    assert.deepEqual(out, []);
  });

  // Names: one thing has one name, and a module is named for what it holds, so a reader who
  // meets a name knows where it lives (issue 32: two RigPorts, hamlib/protocol.ts beside
  // hamlib/protocol/, the rotator's RPRT mapping in answer-rig.ts, ByteConnection in
  // tcp-driver.ts, RotatorArea.hamlibLimits).

  it('no two modules declare an exported type, interface or class of the same name (a re-export declares nothing)', () => {
    const where = new Map<string, string[]>();
    for (const f of graph.keys()) {
      for (const m of code(f).matchAll(/^export\s+(?:declare\s+)?(?:abstract\s+)?(?:interface|type|class|enum)\s+([A-Za-z_$][\w$]*)/gm)) where.set(m[1], [...(where.get(m[1]) ?? []), f]);
    }
    const twice = [...where].filter(([, fs]) => fs.length > 1).map(([name, fs]) => `${name}: ${fs.join(', ')}`);
    assert.deepEqual(twice, []);
  });

  it('no module X.ts stands beside a folder X/', () => {
    const beside = [...graph.keys()].filter((f) => {
      const dir = join(SRC, f.slice(0, -'.ts'.length));
      return existsSync(dir) && statSync(dir).isDirectory();
    });
    assert.deepEqual(beside, []);
  });

  it('a module named for the rotator imports none named for the rig, and the other way round (what both use lives in neither)', () => {
    const rig = (f: string) => words(f).some((w) => /^rig(ctld?)?$/.test(w));
    const rot = (f: string) => words(f).some((w) => /^rot/.test(w));
    const out = [...graph].flatMap(([f, deps]) => deps.filter((d) => (rot(f) && rig(d)) || (rig(f) && rot(d))).map((d) => `${f} → ${d}`));
    assert.deepEqual(out, []);
  });

  it("links/: a driver wraps one outside link and imports no other link's driver (what links share lives in its own module)", () => {
    const link = (f: string) => (f.startsWith('links/') && f.endsWith('-driver.ts') ? basename(f, '-driver.ts').replace(/^lazy-/, '') : null);
    const out = [...graph].flatMap(([f, deps]) => deps.filter((d) => link(f) !== null && link(d) !== null && link(d) !== link(f)).map((d) => `${f} → ${d}`));
    assert.deepEqual(out, []);
  });

  it('the rig and the rotator Hamlib drives name nothing after Hamlib (a member says what it is, not who asks for it)', () => {
    // The surfaces the Hamlib servers drive (ExternalRig, ExternalRotator); a device's own module may
    // well name its Hamlib model number (radio/yaesu/models.ts), as the radio settings will (issue 34).
    const surfaces = ['radio/radio-area.ts', 'radio/radio-service.ts', 'radio/external-control.ts', 'rotator/rotator-area.ts', 'rotator/rotator-service.ts'];
    const named = [...graph.keys()]
      .filter((f) => surfaces.includes(f))
      // members (a line starting with the name, after modifiers) and exported declarations
      .flatMap((f) => [...code(f).matchAll(/^[ \t]*(?:export\s+(?:async\s+)?(?:function|const|let|class|interface|type|enum)\s+|(?:(?:public|private|protected|readonly|static|async|get|set)\s+)*)([hH]amlib\w*)\s*[(:=<?]/gm)].map((m) => `${f}: ${m[1]}`));
    assert.deepEqual(named, []);
  });
});
