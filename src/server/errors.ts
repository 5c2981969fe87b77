// The one place that builds HTTP error bodies: FastAPI's shape, `{"detail": …}`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeHead } from './http.ts';
import type { ValidationIssue } from './params.ts';

/**
 * Returns the JSON body of every error response, e.g. `{"detail":"Not Found"}`
 * or `{"detail":[{"type":"greater_than","loc":["query","limit"],…}]}` for a 422.
 */
export function errorBody(detail: string | ValidationIssue[]): string {
  return JSON.stringify({ detail });
}

/** Standard reason texts, as Starlette words them. */
const REASONS: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  412: 'Precondition Failed',
  416: 'Range Not Satisfiable',
  503: 'Service Unavailable',
  500: 'Internal Server Error',
};

/**
 * Sends an error response with `errorBody(detail)` (detail defaults to the
 * status's reason), `application/json`, CORS allowed, no body for HEAD.
 */
export function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  detail: string | ValidationIssue[] = REASONS[status] ?? 'Error',
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(errorBody(detail));
  writeHead(res, status, { 'content-type': 'application/json', 'content-length': body.length, ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}
