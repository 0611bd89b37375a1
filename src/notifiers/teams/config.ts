import { z } from 'zod';
import { commonKeys, duration, secretUrl } from '../config-types.js';

export const TeamsConfig = z
  .object({
    kind: z.literal('teams'),
    /**
     * The Workflows (Power Automate) trigger URL of "post to a channel when a webhook request is received": a
     * secret (its `sig` parameter is the credential); prefer `webhook_url_file`.
     */
    webhook_url: secretUrl(
      'https://prod-00.westeurope.logic.azure.com:443/workflows/…/triggers/manual/paths/invoke?api-version=2016-06-01&sig=…',
    ),
    timeout: duration().default(10_000),
    ...commonKeys,
  })
  .strict();
export type TeamsConfig = z.output<typeof TeamsConfig>;
