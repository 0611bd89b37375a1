// JSON text with exact int64s: bigints are written as bare JSON integers (no quotes, no rounding). Plain
// JSON.stringify cannot do this on Node 20 (no JSON.rawJSON), and amounts reach ±2^63 (docs/ledger-api.md §14).

/** Wire-shaped JSON object: amounts may be number or bigint; bigints serialize as exact JSON integers. */
export type WireJson = { readonly [key: string]: unknown };

/** Serializes plain JSON data; bigint → integer literal, undefined object members are skipped. */
export function serializeJson(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => serializeJson(item ?? null)).join(',')}]`;
      return serializeObject(value as Record<string, unknown>);
    default:
      return 'null';
  }
}

function serializeObject(value: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    const member = value[key];
    if (member === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${serializeJson(member)}`);
  }
  return `{${parts.join(',')}}`;
}
