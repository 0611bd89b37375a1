// The first pass every GET list route starts with: parse the query, validate every parameter at once
// (docs/ledger-api.md §2.1, 2.3), and answer 400 with all messages when anything is wrong.
import { parseQuery, validateQuery, type Filter, type QueryParam } from '../params.js';
import { errorResponse, type RouteResponse } from '../response.js';
import type { RouteRequest } from '../route.js';

export interface ParsedQuery {
  /** Parsed parameters, raw values kept (the next link echoes them). */
  readonly params: QueryParam[];
  /** Operator-split filters that passed validation, in query order. */
  readonly filters: Filter[];
}

/** The parsed query, or the 400 response listing every problem. */
export function firstPass(
  request: RouteRequest,
  validators: ReadonlyMap<string, (filter: Filter) => boolean>,
): ParsedQuery | RouteResponse {
  const params = parseQuery(request.rawQuery);
  const pass = validateQuery(params, {
    validators,
    maxRepeated: request.config.maxRepeatedQueryParameters,
  });
  return pass.ok ? { params, filters: pass.filters } : errorResponse(400, pass.messages);
}
