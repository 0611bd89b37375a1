// The status page's tables: one header row, then the rows; a numeric column is right-aligned. A table wider than
// the screen scrolls inside its box (a phone), never the page.
import { html, type SafeHtml } from './html.js';

/** A column heading; `{ num }` for a numeric (right-aligned) column. */
export type Column = string | { readonly num: string };

export function dataTable(columns: readonly Column[], rows: readonly SafeHtml[]): SafeHtml {
  const headings = columns.map((c) =>
    typeof c === 'string' ? html`<th>${c}</th>` : html`<th class="num">${c.num}</th>`,
  );
  return html`<div class="scroll">
    <table>
      <thead>
        <tr>
          ${headings}
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`;
}
