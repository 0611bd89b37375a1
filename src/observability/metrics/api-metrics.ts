// The runtime API's metrics.
import { Counter, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** The HTTP API. */
export function apiMetrics(r: Registry[]) {
  return {
    apiRequests: new Counter({
      name: `${P}api_requests_total`,
      help: 'Requests to the /api/v1 and /-/ endpoints, by method and status code.',
      labelNames: ['method', 'code'],
      registers: r,
    }),
  };
}
