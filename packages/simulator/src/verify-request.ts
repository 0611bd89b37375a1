// Reads and validates a POST /session/verify/etherscan body the way Sourcify's request validator does
// (docs/ledger-api.md §18.1, 18.4): JSON (chainId must be a string), multipart or url-encoded form (chain or chainId).
import type { IncomingMessage } from 'node:http';

export interface VerifyFields {
  readonly address: string;
  readonly chainId: string;
  readonly apiKey: string | undefined;
}

export interface ValidatorIssue {
  readonly path: string;
  readonly message: string;
  readonly errorCode: string;
}

export type VerifyRequestParse =
  | { ok: true; fields: VerifyFields }
  | { ok: false; kind: 'validator'; issues: ValidatorIssue[] }
  | { ok: false; kind: 'body'; message: string };

const MAX_BODY_BYTES = 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body exceeds 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function multipartFields(body: Buffer, contentType: string): Record<string, unknown> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const marker = boundary?.[1] ?? boundary?.[2];
  const fields: Record<string, unknown> = {};
  if (!marker) return fields;
  for (const part of body.toString('utf8').split(`--${marker}`)) {
    const match = /name="([^"]+)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n?$/.exec(part);
    if (match?.[1] !== undefined) fields[match[1]] = match[2];
  }
  return fields;
}

/** The fields as sent, before validation; `form` tells which name the chain field is reported under. */
function rawFields(
  body: Buffer,
  contentType: string,
): { fields: Record<string, unknown>; form: boolean } | null {
  if (contentType.toLowerCase().startsWith('multipart/form-data')) {
    const fields = multipartFields(body, contentType);
    if (fields.chain === undefined && fields.chainId !== undefined) fields.chain = fields.chainId;
    return { fields, form: true };
  }
  if (contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    const fields: Record<string, unknown> = Object.fromEntries(new URLSearchParams(body.toString('utf8')));
    if (fields.chain === undefined && fields.chainId !== undefined) fields.chain = fields.chainId;
    return { fields, form: true };
  }
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8') || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return { fields: parsed as Record<string, unknown>, form: false };
  } catch {
    return null;
  }
}

export function parseVerifyRequest(body: Buffer, contentType: string): VerifyRequestParse {
  const raw = rawFields(body, contentType);
  if (raw === null) return { ok: false, kind: 'body', message: 'Request body is not valid JSON.' };
  const chainKey = raw.form ? 'chain' : 'chainId';
  const issues: ValidatorIssue[] = [];
  for (const key of ['address', chainKey]) {
    if (raw.fields[key] === undefined) {
      const message = `must have required property '${key}'`;
      issues.push({ path: '/body', message, errorCode: 'required.openapi.validation' });
    }
  }
  for (const key of ['address', chainKey, 'apiKey']) {
    const value = raw.fields[key];
    if (value !== undefined && typeof value !== 'string') {
      issues.push({ path: `/body/${key}`, message: 'must be string', errorCode: 'type.openapi.validation' });
    }
  }
  if (issues.length > 0) return { ok: false, kind: 'validator', issues };
  const apiKey = raw.fields.apiKey as string | undefined;
  return {
    ok: true,
    fields: { address: raw.fields.address as string, chainId: raw.fields[chainKey] as string, apiKey },
  };
}

/** `request/body must have required property 'address'`, several joined by ", " like the validator does. */
export function validatorMessage(issues: readonly ValidatorIssue[]): string {
  return issues.map((i) => `request${i.path} ${i.message}`).join(', ');
}
