// The server's route table: every path the locations API answers, declared
// once. The router (app.ts, api.ts), the OpenAPI document (openapi.ts) and the
// test of the error shape (test/server/errors.test.ts) all walk this list, so
// a new route is routed, described and checked alike.
import { ROUTE_TYPES, type LocationType } from '../locations/types.ts';

/** A paged list of locations, e.g. "/ubicaciones/otros/" → the otro rows. */
export interface ListRoute {
  kind: 'list';
  path: string;
  /** The type listed; null for every type ("/ubicaciones/"). */
  type: LocationType | null;
  /** The original FastAPI service's function for the route, which its operationId is made from. */
  handler: string;
  summary: string;
}

/** The API's own description, at /openapi.json. */
interface OpenApiRoute {
  kind: 'openapi';
  path: '/openapi.json';
}

export type ApiRoute = ListRoute | OpenApiRoute;

/**
 * The original service's functions, as its own page of routes names them
 * (andresgmg/UBI-COPEC at dd825f9, the commit the corpus's copec.db is from):
 * `get_ubicaciones` for "/ubicaciones/", and one per type; `get_prontos` for
 * the first category, which the spec serves as "convenience".
 */
const HANDLERS: Record<LocationType | 'all', string> = {
  all: 'get_ubicaciones',
  convenience: 'get_prontos',
  bencinera: 'get_bencineras',
  servicio: 'get_servicios',
  otro: 'get_otros',
};

/** Every route the API serves, in the order the OpenAPI document lists them. */
export const API_ROUTES: readonly ApiRoute[] = [
  { kind: 'list', path: '/ubicaciones/', type: null, handler: HANDLERS.all, summary: 'All locations' },
  ...[...ROUTE_TYPES].map(([segment, type]): ListRoute => ({
    kind: 'list',
    path: `/ubicaciones/${segment}/`,
    type,
    handler: HANDLERS[type],
    summary: `Locations of type ${type}`,
  })),
  { kind: 'openapi', path: '/openapi.json' },
];

/** Every API route by its decoded path: a Map, so "/ubicaciones/constructor/" is no route. */
const BY_PATH: ReadonlyMap<string, ApiRoute> = new Map(API_ROUTES.map((route) => [route.path, route]));

/** Returns the API route of a decoded path, e.g. "/ubicaciones/otros/" → the otro list. */
export function matchApi(path: string): ApiRoute | undefined {
  return BY_PATH.get(path);
}

/**
 * Returns the operationId FastAPI gives a route by default (its
 * `generate_unique_id`): the function's name and the path, each character
 * that is not a letter, digit or "_" replaced by "_", then "_" and the method,
 * e.g. "get_otros_ubicaciones_otros__get". Generated clients name their
 * methods after it, as they did for the original service.
 */
export function operationId(route: ListRoute, method = 'get'): string {
  return `${`${route.handler}${route.path}`.replace(/\W/g, '_')}_${method}`;
}
