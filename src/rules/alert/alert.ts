// The alert: what the rule engine emits and what the outbox, the notifiers and the metrics consume.
// Plain data (JSON-serialisable: amounts as decimal strings) so it can be stored in the outbox as is.

export type Severity = 'info' | 'warning' | 'critical';
export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'critical'];

export type AlertStatus = 'firing' | 'resolved';

export interface AlertAccount {
  /** `0.0.1234` */
  readonly id: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

/** The ledger record behind an alert, pre-digested for messages. All text here is ledger-controlled: escape it. */
export interface AlertRecord {
  readonly kind: 'transaction' | 'reward' | 'synthetic';
  readonly consensusTimestamp: string;
  readonly transactionId?: string;
  readonly type?: string;
  readonly result?: string;
  /** Net HBAR change of the watched account in tinybars, fees included, as a decimal string (int64-exact). */
  readonly amountTinybar?: string;
  readonly feeTinybar?: string;
  /** Decoded memo (UTF-8, invalid bytes replaced). Attacker-controlled. */
  readonly memo?: string;
  readonly explorerUrl?: string;
  /** Token and NFT moves of the watched account in this record (absent in rows written before they existed). */
  readonly tokens?: readonly AlertTokenMove[];
}

/** One token or NFT movement of the watched account. Amounts are in the token's smallest unit. */
export interface AlertTokenMove {
  readonly tokenId: string;
  /** Signed net change in the token's smallest unit (decimal string); '1' / '-1' for an NFT serial. */
  readonly amount: string;
  /** The token's decimals when known; without them amounts are shown in smallest units and say so. */
  readonly decimals?: number;
  /** The token's symbol when known (ledger-controlled: escape it). */
  readonly symbol?: string;
  /** The name `tokens:` in the config gives the token. */
  readonly name?: string;
  /** NFT serial number, for NFT moves. */
  readonly serial?: string;
  /** The other side: the accounts the token went to (debit) or came from (credit). */
  readonly counterparty?: string;
}

export interface Alert {
  /** Stable identity: rule id + group values. The same key = the same alert (dedup, Message-ID, idempotency). */
  readonly key: string;
  /**
   * Unique per transition: `key|status|startsAt`, plus `|repeat-N` for the Nth reminder of a still-firing windowed
   * alert. What the outbox and receivers dedupe on.
   */
  readonly id: string;
  readonly ruleId: string;
  readonly severity: Severity;
  readonly status: AlertStatus;
  /** Rendered templates; may contain ledger-controlled text, so notifiers escape them. */
  readonly summary: string;
  readonly description: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly account?: AlertAccount;
  /** ISO 8601 UTC. */
  readonly startsAt: string;
  readonly endsAt?: string;
  /** Records that caused it (the first N for windows and digests). */
  readonly records: readonly AlertRecord[];
  /** How many records matched in all (records may hold only the first N). */
  readonly matchCount: number;
  /** Notifier names from the rule's `notify:`; routing may add more. */
  readonly notify: readonly string[];
  /** Enrichment results (e.g. contract verification status), already rendered as short text. */
  readonly annotations: Readonly<Record<string, string>>;
  // Optional below: outbox rows written before these existed must still deliver.
  /** The record that caused this transition (the newest one for windows); absent for time-driven ones. */
  readonly trigger?: AlertRecord;
  /** Why it fired: the condition with the values that matched, e.g. `net debit 50,000 HBAR ≥ 10,000 HBAR`. */
  readonly why?: string;
  /** Resolves: what resolved it (the record that ended an absence, the window falling below its threshold). */
  readonly resolution?: string;
  /** A link to the watched account on the configured explorer (none when no explorer serves the network). */
  readonly accountUrl?: string;
  /**
   * A resolved transition will end it (windowed rules, self-monitoring); absent for per-record alerts, which
   * never resolve. Receivers with an alert lifecycle (Alertmanager) keep such an alert alive until then.
   */
  readonly resolves?: boolean;
}
