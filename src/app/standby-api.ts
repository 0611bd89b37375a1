// On a standby the read API answers from the shared state, but state-changing calls (silences, acks) are refused
// with 503 naming the leader: the standby's writes would never reach the shared state (only the lease holder
// writes), and a 503 makes a client or load balancer retry where it will land on the leader (docs/api.md).
// /-/reload stays local: every replica reloads its own config.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRouter } from '../api/api-router.js';
import { sendJson } from '../api/http-io.js';
import type { Leadership } from './leadership.js';

export function standbyApi(api: ApiRouter, leadership: () => Leadership | undefined): ApiRouter {
  return (req: IncomingMessage, res: ServerResponse) => {
    const current = leadership();
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    const url = req.url ?? '';
    const shared = url.startsWith('/api/') || url.startsWith('/actions/');
    if (!current || current.leading() || !write || !shared) return api(req, res);
    const leader = current.leader();
    const named = leader?.live && leader.holder ? leader : undefined;
    sendJson(
      res,
      503,
      {
        error:
          'this replica is a standby: state-changing calls go to the leader' +
          (named ? ` ${named.holder} (token ${named.token})` : ' (none elected right now; retry shortly)'),
        leader: named?.holder ?? null,
        leader_url: named?.holderUrl ?? null,
      },
      { 'retry-after': '1' },
    );
    return true;
  };
}
