// The Subject header, always as RFC 2047 encoded-words. Left to nodemailer, an all-ASCII subject goes out as is, and
// a memo holding `=?utf-8?B?…?=` would then be decoded by every mail client: the reader would see text the memo
// does not say. Encoded in full, the decoded subject is exactly the text we wrote, encoded-word look-alikes included.

/** UTF-8 bytes per encoded-word: 39 bytes → 52 base64 characters → a 64-character word (RFC 2047 allows 75). */
const WORD_BYTES = 39;

/** Base64 encoded-words of `subject`, folded one per line; never splits a character across two words. */
export function encodeSubject(subject: string): string {
  const words: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const char of subject) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > WORD_BYTES && chunk) {
      words.push(word(chunk));
      chunk = '';
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  if (chunk || words.length === 0) words.push(word(chunk));
  return words.join('\r\n ');
}

function word(text: string): string {
  return `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
