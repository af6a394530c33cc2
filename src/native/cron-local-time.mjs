// esbuild plugin used by build.mjs (see the comment below for why).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// node-cron reads the wall clock through Intl.DateTimeFormat('en-US') even when no time zone is
// asked for, and the first DateTimeFormat pages ~7 MiB of ICU locale data and code into the
// resident set for good (measured: server steady-state RSS 66.6 → 59.3 MiB). Our jobs name no
// time zone, so in the bundle those formatters become a local-time twin built on Date's getters
// (same parts, same values); a job with a time zone still gets the real Intl formatter.
const CRON_LOCAL_TIME = `
const __pad2 = (n) => String(n).padStart(2, '0');
const __WD = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
class __LocalTimeFormat {
  constructor(o) { this.offset = !!o.timeZoneName; }
  formatToParts(when) {
    const d = new Date(when);
    if (this.offset) {
      const off = -d.getTimezoneOffset();
      const a = Math.abs(off);
      return [{ type: 'timeZoneName', value: off === 0 ? 'GMT' : 'GMT' + (off < 0 ? '-' : '+') + Math.floor(a / 60) + (a % 60 ? ':' + __pad2(a % 60) : '') }];
    }
    return [
      { type: 'weekday', value: __WD[d.getDay()] },
      { type: 'month', value: __pad2(d.getMonth() + 1) },
      { type: 'day', value: __pad2(d.getDate()) },
      { type: 'year', value: String(d.getFullYear()) },
      { type: 'hour', value: __pad2(d.getHours()) },
      { type: 'minute', value: __pad2(d.getMinutes()) },
      { type: 'second', value: __pad2(d.getSeconds()) },
    ];
  }
}
const __cronTimeFormat = (locale, o) => (o.timeZone ? new Intl.DateTimeFormat(locale, o) : new __LocalTimeFormat(o));
`;

/**
 * The twin must read exactly what Intl reads (literals aside, which node-cron drops): checked at
 * every build over a year of instants in zones with DST, half-hour and 30-minute-DST offsets.
 */
function checkCronLocalTime() {
  const { make } = new Function(`${CRON_LOCAL_TIME}; return { make: (o) => __cronTimeFormat('en-US', o) };`)();
  const partsOpts = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short', hour12: false };
  // What node-cron reads: the numeric fields and weekday ('24' is its midnight), or the offset in minutes.
  const minutes = (v) => {
    const m = /^GMT(?:([+-])(\d{1,2})(?::(\d{2}))?)?$/.exec(v);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) : `unreadable ${v}`;
  };
  const value = (p) => (p.type === 'timeZoneName' ? minutes(p.value) : p.type === 'weekday' ? p.value : Number(p.value) % (p.type === 'hour' ? 24 : Infinity));
  const norm = (parts) => parts.filter((p) => p.type !== 'literal').map((p) => `${p.type}=${value(p)}`).sort().join(' ');
  const tz = process.env.TZ;
  try {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe']) {
      process.env.TZ = zone;
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * 3600_000 + 1234) {
        for (const o of [partsOpts, { timeZone: undefined, timeZoneName: 'shortOffset' }]) {
          const real = new Intl.DateTimeFormat('en-US', o).formatToParts(new Date(t));
          const want = norm(o.timeZoneName ? real.filter((p) => p.type === 'timeZoneName') : real);
          const got = norm(make(o).formatToParts(new Date(t)));
          if (want !== got) throw new Error(`cron-local-time differs from Intl in ${zone} at ${new Date(t).toISOString()}: ${got} vs ${want}`);
        }
      }
    }
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
}

// node-cron's entry imports child_process for its background (forked) tasks; we run every job
// inline (util/scheduler.ts), and child_process with net and dgram under it was ~15 ms of CPU at
// each boot here, a tenth of a second and more on a Pi. In the bundle its fork is a stand-in that
// says so if a background task is ever asked for.
const NO_FORK = "const fork = () => { throw new Error('node-cron background tasks are not in this bundle: jobs run inline'); };";

// node-cron names each task with crypto's randomUUID, so node:crypto (~2 MiB of RSS, ~5 ms of CPU)
// was read at every boot for it (issue 36). A task's id only tells our few tasks apart inside one
// process; in the bundle it comes from Math.random, in the same shape, and crypto is read only by
// what needs it (src/util/lazy-builtins.ts).
const NO_CRYPTO_IMPORT = "import { randomUUID } from 'node:crypto';";
const TASK_ID = `import { randomUuidShape as randomUUID } from ${JSON.stringify(fileURLToPath(new URL('../util/hash64.ts', import.meta.url)))};`;
const CRYPTO_SIDE_EFFECT = "import 'node:crypto';";

/** `src` with `from` replaced once; the build fails if a node-cron update moved it. */
function replaceOnce(src, from, to, path) {
  if (src.split(from).length !== 2) throw new Error(`cron-local-time: expected one "${from}" in ${path}`);
  return src.replace(from, to);
}

export const cronLocalTime = {
  name: 'cron-local-time',
  setup(b) {
    b.onStart(checkCronLocalTime);
    b.onLoad({ filter: /node-cron[\\/]dist[\\/]node-cron\.js$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      const noFork = replaceOnce(src, "import { fork } from 'child_process';", NO_FORK, args.path);
      return { contents: replaceOnce(noFork, CRYPTO_SIDE_EFFECT, '', args.path), loader: 'js' };
    });
    b.onLoad({ filter: /node-cron[\\/]dist[\\/]_shared\.js$/ }, (args) => {
      const src = readFileSync(args.path, 'utf8');
      const uses = src.split('new Intl.DateTimeFormat(').length - 1;
      // Fail the build, not the appliance, if a node-cron update moves its formatters.
      if (uses !== 2) throw new Error(`cron-local-time: expected 2 Intl.DateTimeFormat uses in ${args.path}, found ${uses}`);
      const noCrypto = replaceOnce(src, NO_CRYPTO_IMPORT, TASK_ID, args.path);
      return { contents: CRON_LOCAL_TIME + noCrypto.replaceAll('new Intl.DateTimeFormat(', '__cronTimeFormat('), loader: 'js' };
    });
  },
};
