// Label names and look-ups by name. Names come from users (rule files, the config, the API, the status page's
// filters) and values from the ledger, so a look-up reads own keys only: `constructor`, `toString` or `__proto__`
// must never find Object.prototype's members. Every read of a label by a user-supplied name goes through here.

/** The value of an own key, or undefined: never one inherited from Object.prototype. */
export function ownValue<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** What a label look-up reads: an alert's labels, then its watched account's. */
export interface Labelled {
  readonly labels: Readonly<Record<string, string>>;
  readonly account?: { readonly labels: Readonly<Record<string, string>> } | undefined;
}

/** The label `name` of an alert (its own labels first, then its account's), or undefined. */
export function labelValue(alert: Labelled, name: string): string | undefined {
  return ownValue(alert.labels, name) ?? ownValue(alert.account?.labels, name);
}

/** Every `labels:` mapping equal on an alert (own keys only); true for no mapping. */
export function labelsEqual(wanted: Readonly<Record<string, string>> | undefined, alert: Labelled): boolean {
  if (!wanted) return true;
  return Object.entries(wanted).every(([name, value]) => labelValue(alert, name) === value);
}
