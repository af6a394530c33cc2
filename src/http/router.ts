import type { Method, RouteDef } from './route.js';

export type Match =
  | { kind: 'found'; route: RouteDef }
  | { kind: 'method_not_allowed'; allowed: Method[] }
  | { kind: 'not_found' };

const NOT_FOUND: Match = { kind: 'not_found' };

/**
 * The API has only static paths, so dispatch is one Map lookup per request: no regex, no
 * allocation on the hot path (matches are prebuilt). A trailing slash is tolerated.
 */
export class Router {
  private readonly table = new Map<string, { byMethod: Map<Method, Match>; notAllowed: Match }>();
  private readonly list: RouteDef[] = [];

  add(route: RouteDef): void {
    const path = normalize(route.path);
    let entry = this.table.get(path);
    if (!entry) {
      entry = { byMethod: new Map(), notAllowed: { kind: 'method_not_allowed', allowed: [] } };
      this.table.set(path, entry);
    }
    if (entry.byMethod.has(route.method)) throw new Error(`duplicate route ${route.method} ${path}`);
    entry.byMethod.set(route.method, { kind: 'found', route });
    (entry.notAllowed as { allowed: Method[] }).allowed.push(route.method);
    this.list.push(route);
  }

  match(method: string, rawPath: string): Match {
    let entry = this.table.get(rawPath);
    if (!entry) {
      const p = normalize(rawPath);
      if (p !== rawPath) entry = this.table.get(p);
      if (!entry) return NOT_FOUND;
    }
    return entry.byMethod.get(method.toUpperCase() as Method) ?? entry.notAllowed;
  }

  routes(): readonly RouteDef[] {
    return this.list;
  }
}

function normalize(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
