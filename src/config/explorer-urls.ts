// Which explorer links alerts carry: the configured templates, else HashScan for the network of a public Hedera
// mirror node, else none, so alerts about a simulated or private ledger never link to mainnet pages.
import type { ExplorerConfig } from './sections/explorer.js';

export interface ExplorerUrls {
  readonly transactionUrl?: string;
  readonly accountUrl?: string;
}

const NETWORKS = ['mainnet', 'testnet', 'previewnet'] as const;

export function explorerUrls(explorer: ExplorerConfig, ledgerBaseUrl: string): ExplorerUrls {
  const network = publicNetwork(ledgerBaseUrl);
  const base = network && `https://hashscan.io/${network}`;
  const transactionUrl =
    explorer.transaction_url ?? (base ? `${base}/transaction/{{consensus_timestamp}}` : '');
  const accountUrl = explorer.account_url ?? (base ? `${base}/account/{{id}}` : '');
  return {
    ...(transactionUrl ? { transactionUrl } : {}),
    ...(accountUrl ? { accountUrl } : {}),
  };
}

/** `mainnet` for https://mainnet.mirrornode.hedera.com (and mainnet-public…), undefined for any other host. */
export function publicNetwork(baseUrl: string): (typeof NETWORKS)[number] | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
  if (!host.endsWith('.mirrornode.hedera.com')) return undefined;
  return NETWORKS.find((n) => host === `${n}.mirrornode.hedera.com` || host.startsWith(`${n}-public.`));
}
