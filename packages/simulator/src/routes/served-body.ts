// The members of a token, balance or account answer that the route tests read, typed once for all of them
// (the whole bodies are checked against the service's own cases by the conformance run).
export interface ServedBody {
  readonly [key: string]: unknown;
  readonly balances: ReadonlyArray<{ readonly account: string }>;
  readonly links: { readonly next: string };
  readonly _status: {
    readonly messages: ReadonlyArray<{ readonly message: string; readonly detail?: string }>;
  };
  readonly balance: unknown;
  readonly timestamp: string | null;
  readonly transactions: unknown;
  readonly symbol: string;
  readonly token_id: string;
  readonly total_supply: string;
  readonly initial_supply: string;
  readonly treasury_account_id: string;
  readonly decimals: string;
  readonly supply_key: { readonly _type: string };
}
