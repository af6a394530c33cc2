import type { Method, RouteDef } from './route.js';

export type Match =
  | { kind: 'found'; route: RouteDef; params: Readonly<Record<string, string>> }
  | { kind: 'method_not_allowed'; allowed: Method[] }
  | { kind: 'not_found' };

const NOT_FOUND: Match = { kind: 'not_found' };
/** The params of every static route: one frozen object, nothing made per request. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze(Object.create(null));

interface Entry {
  byMethod: Map<Method, Match>;
  notAllowed: Match;
}

/** A path with `{name}` segments (`/api/v1/recordings/{id}/audio`): its segments, a name where one is a parameter. */
interface Pattern {
  segments: ReadonlyArray<{ literal: string } | { param: string }>;
  routes: Map<Method, RouteDef>;
  allowed: Method[];
}

/** A parameter segment: what a resource id may be (no slash, no dot-dot, bounded). */
const PARAM_RE = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * Most of the API has static paths, so dispatch is one Map lookup per request: no regex, no
 * allocation on the hot path (matches are prebuilt). The few resource routes with an id in the
 * path (`{id}` segments) are tried only when that lookup misses. A trailing slash is tolerated.
 */
export class Router {
  private readonly table = new Map<string, Entry>();
  private readonly patterns: Pattern[] = [];
  private readonly list: RouteDef[] = [];

  add(route: RouteDef): void {
    const path = normalize(route.path);
    if (path.includes('{')) this.addPattern(path, route);
    else {
      let entry = this.table.get(path);
      if (!entry) {
        entry = { byMethod: new Map(), notAllowed: { kind: 'method_not_allowed', allowed: [] } };
        this.table.set(path, entry);
      }
      if (entry.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${path}`);
      entry.byMethod.set(route.method, { kind: 'found', route, params: NO_PARAMS });
      (entry.notAllowed as { allowed: Method[] }).allowed.push(route.method);
    }
    this.list.push(route);
  }

  match(method: string, rawPath: string): Match {
    let entry = this.table.get(rawPath);
    if (!entry) {
      const p = normalize(rawPath);
      if (p !== rawPath) entry = this.table.get(p);
      if (!entry) return this.patterns.length > 0 ? this.matchPattern(method, p) : NOT_FOUND;
    }
    return entry.byMethod.get(method.toUpperCase() as Method) ?? entry.notAllowed;
  }

  routes(): readonly RouteDef[] {
    return this.list;
  }

  private addPattern(path: string, route: RouteDef): void {
    let pattern = this.patterns.find((p) => segmentsOf(p) === path);
    if (!pattern) {
      const segments = path
        .split('/')
        .slice(1)
        .map((s) => (/^\{[a-z_]+\}$/.test(s) ? { param: s.slice(1, -1) } : { literal: s }));
      pattern = { segments, routes: new Map(), allowed: [] };
      this.patterns.push(pattern);
    }
    if (pattern.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${path}`);
    pattern.routes.set(route.method, route);
    pattern.allowed.push(route.method);
  }

  private matchPattern(method: string, path: string): Match {
    const parts = path.split('/').slice(1);
    for (const p of this.patterns) {
      if (p.segments.length !== parts.length) continue;
      const params: Record<string, string> = Object.create(null);
      let ok = true;
      for (let i = 0; i < parts.length && ok; i++) {
        const seg = p.segments[i];
        if ('literal' in seg) ok = seg.literal === parts[i];
        else if ((ok = PARAM_RE.test(parts[i]) && parts[i] !== '.' && parts[i] !== '..')) params[seg.param] = parts[i];
      }
      if (!ok) continue;
      const route = p.routes.get(method.toUpperCase() as Method);
      return route ? { kind: 'found', route, params } : { kind: 'method_not_allowed', allowed: p.allowed };
    }
    return NOT_FOUND;
  }
}

const segmentsOf = (p: Pattern): string => '/' + p.segments.map((s) => ('literal' in s ? s.literal : `{${s.param}}`)).join('/');

function normalize(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
