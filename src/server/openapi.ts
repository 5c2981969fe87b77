// The OpenAPI 3.1 document served at /openapi.json, in the shape FastAPI
// generates for the original service (operationIds included), plus the
// headers this server adds.
import { API_ROUTES, operationId, type ListRoute } from './routes.ts';

const pagingParameters = [
  {
    name: 'skip',
    in: 'query',
    required: false,
    description: 'number of records to skip',
    schema: { type: 'integer', minimum: 0, default: 0, title: 'Skip' },
  },
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'maximum number of records to return',
    schema: { type: 'integer', exclusiveMinimum: 0, default: 100, title: 'Limit' },
  },
];

const listHeaders = {
  'X-Total-Count': { description: 'number of records of the route, all pages', schema: { type: 'integer' } },
  Link: { description: 'RFC 8288 links with rel="next" and rel="prev" pages', schema: { type: 'string' } },
  ETag: {
    description: 'strong validator; send it back in If-None-Match for a 304',
    schema: { type: 'string' },
  },
};

/** Returns the path item of one list route: its GET, named as FastAPI names the original's. */
function operation(route: ListRoute) {
  const typed = route.type;
  const responses: Record<string, unknown> = {
    '200': {
      description: 'Successful Response',
      headers: listHeaders,
      content: {
        'application/json': {
          schema: { type: 'array', items: { $ref: '#/components/schemas/Location' }, title: 'Response' },
        },
      },
    },
    '422': {
      description: 'Validation Error',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
    },
  };
  if (typed) {
    responses['404'] = {
      description: `No location of the type on this page, e.g. {"detail":"No se encontraron ubicaciones de tipo ${typed}"}`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPError' } } },
    };
  }
  const get = { summary: route.summary, operationId: operationId(route), parameters: pagingParameters };
  return { get: { ...get, responses } };
}

/** Returns the OpenAPI document describing every list route of API_ROUTES. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of API_ROUTES) if (route.kind === 'list') paths[route.path] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'geoshelf locations API',
      description:
        'Read-only, paginated locations, compatible with the original FastAPI service. ' +
        'Every response allows CORS; 200 responses carry ETag, Cache-Control, X-Total-Count and Link.',
      version: '1.0.0',
    },
    paths,
    components: {
      schemas: {
        Location: {
          type: 'object',
          title: 'Location',
          required: ['id', 'name', 'description', 'type', 'latitude', 'longitude'],
          properties: {
            id: { type: 'string', format: 'uuid', title: 'Id' },
            name: { type: 'string', title: 'Name' },
            description: { type: 'string', title: 'Description' },
            type: { type: 'string', enum: ['convenience', 'bencinera', 'servicio', 'otro'], title: 'Type' },
            latitude: { type: 'number', minimum: -90, maximum: 90, title: 'Latitude' },
            longitude: { type: 'number', minimum: -180, maximum: 180, title: 'Longitude' },
          },
        },
        HTTPError: {
          type: 'object',
          title: 'HTTPError',
          required: ['detail'],
          properties: { detail: { type: 'string', title: 'Detail' } },
        },
        HTTPValidationError: {
          type: 'object',
          title: 'HTTPValidationError',
          properties: {
            detail: {
              type: 'array',
              items: { $ref: '#/components/schemas/ValidationError' },
              title: 'Detail',
            },
          },
        },
        ValidationError: {
          type: 'object',
          title: 'ValidationError',
          required: ['loc', 'msg', 'type'],
          properties: {
            loc: {
              type: 'array',
              items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
              title: 'Location',
            },
            msg: { type: 'string', title: 'Message' },
            type: { type: 'string', title: 'Error Type' },
          },
        },
      },
    },
  };
}
