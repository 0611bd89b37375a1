// What a route of the simulated service is and what it is handed per request (server.ts dispatches, routes/*
// answer), in a leaf of its own so the server and its routes do not import each other for it.
import type { IncomingMessage } from 'node:http';
import type { SimulatorConfig } from './config.js';
import type { RouteResponse } from './response.js';
import type { SimulatorStore } from './store.js';

export interface RouteRequest {
  readonly method: string;
  /** The path as sent (prefix included, no query), percent-encoding untouched. */
  readonly path: string;
  /** The path after the prefix. */
  readonly routePath: string;
  /** The raw query string without `?` ('' when absent). */
  readonly rawQuery: string;
  /** Path parameters by name, percent-decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly store: SimulatorStore;
  readonly config: SimulatorConfig;
  /** The request clock (config.now()), read once per request. */
  readonly nowNs: bigint;
  /** The node request, when there is one (in-process dispatch has none). */
  readonly req?: IncomingMessage;
}

export interface Route {
  readonly method: string;
  /** Path template after the prefix, `:name` for a segment: `/api/v1/accounts/:id/rewards`. */
  readonly pattern: string;
  /** Cache-Control sent on 2xx responses (docs/ledger-api.md §12); default `public, max-age=1`; null sends none. */
  readonly cacheControl?: string | null;
  handle(request: RouteRequest): RouteResponse | Promise<RouteResponse>;
}
