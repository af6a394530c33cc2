import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { parseLogLevel } from './util/logger.js';
import { allowedHostEntryProblem, normalizeHostName } from './util/request-origin.js';

// Everything is optional: with no environment at all the appliance serves the bundled catalog
// from ./data on port 8080.
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A level, or per namespace: `info,radio:civ=debug`. */
  logLevel: string;
  lowPower: boolean;
  /** Comma-separated catalog sources (URLs or file paths); empty means the settings/default list. */
  catalogSources: string[];
  /** Where the built UI lives (dist/ui next to the bundle). */
  uiDir: string | null;
  /** OPERATOR_TOKEN: locks the station with this token (the API cannot unlock it); null = the setting decides. */
  operatorToken: string | null;
  /**
   * ALLOWED_HOSTS: host names served besides IP literals, localhost and this machine's own name
   * (DNS-rebinding protection, src/http/request-origin.ts): `station.lan`, `.example.org`, `*`.
   */
  allowedHosts: string[];
}

const LOW_POWER_MEMORY_BYTES = 1024 ** 3;

const EnvSchema = v.object({
  PORT: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(65535)), '8080'),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '0.0.0.0'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  LOG_LEVEL: v.optional(v.pipe(v.string(), v.check((s) => parseLogLevel(s) !== null, 'must be a level (debug, info, warn, error, silent) or a list like info,radio:civ=debug')), 'info'),
  LOW_POWER: v.optional(v.picklist(['auto', '0', '1', 'true', 'false', 'on', 'off']), 'auto'),
  CATALOG_SOURCES: v.optional(v.string(), ''),
  UI_DIR: v.optional(v.string()),
  OPERATOR_TOKEN: v.optional(v.pipe(v.string(), v.minLength(8, 'must be at least 8 characters'), v.maxLength(256))),
  ALLOWED_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.transform(splitList),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        for (const entry of dataset.value) {
          const problem = allowedHostEntryProblem(entry);
          if (problem) addIssue({ message: problem });
        }
      }),
    ),
    '',
  ),
});

function splitList(s: string): string[] {
  return s.split(',').map((x) => x.trim()).filter(Boolean);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, memBytes = totalmem()): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.entries)) {
    const val = env[key];
    if (val !== undefined && val !== '') picked[key] = val;
  }
  const res = v.safeParse(EnvSchema, picked);
  if (!res.success) {
    const issue = res.issues[0];
    const key = issue.path?.map((p) => String(p.key)).join('.') ?? '?';
    throw new Error(`invalid environment ${key}: ${issue.message}`);
  }
  const e = res.output;
  const lp = e.LOW_POWER;
  const lowPower = lp === 'auto' ? memBytes <= LOW_POWER_MEMORY_BYTES : ['1', 'true', 'on'].includes(lp);
  return {
    port: Number(e.PORT),
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    logLevel: e.LOG_LEVEL,
    lowPower,
    catalogSources: splitList(e.CATALOG_SOURCES),
    uiDir: e.UI_DIR ? resolve(e.UI_DIR) : null,
    operatorToken: e.OPERATOR_TOKEN ?? null,
    allowedHosts: e.ALLOWED_HOSTS.map(normalizeHostName),
  };
}
