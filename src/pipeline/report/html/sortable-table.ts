import { Html, type HtmlPart, html } from './html-escape.js';
import { formatCount } from './report-format.js';

export interface TableColumn {
  label: string;
  /** Numbers sort numerically (by each cell's `data-sort`) and align right. */
  numeric?: boolean;
  /** False for columns no order helps with (lists of example URLs): the header stays plain text. */
  sortable?: boolean;
}

export interface TableCell {
  content: HtmlPart;
  /** The value sorted on, when the shown text is not it (formatted counts, "at least" figures). */
  sort?: number | string;
  className?: string;
  /** A tooltip (the detail behind a short word). */
  title?: string;
}

export type Cell = TableCell | string | number;

export interface TableSpec {
  caption: string;
  columns: readonly TableColumn[];
  rows: readonly (readonly Cell[])[];
  /** The column the rows come sorted by, and in which direction (shown with `aria-sort`). */
  sortedBy?: { column: number; direction: 'ascending' | 'descending' };
  /** An id per row (a link target), or undefined. */
  rowIds?: readonly (string | undefined)[];
  className?: string;
  /** The caption is for screen readers only (a heading above already says it). */
  hiddenCaption?: boolean;
}

function cellOf(cell: Cell): TableCell {
  if (typeof cell === 'number') return { content: formatCount(cell), sort: cell };
  if (typeof cell === 'string') return { content: cell };
  return cell;
}

/**
 * A real `<table>` that reads without JavaScript; with it, SORT_SCRIPT makes each header a button that sorts
 * the rows by that column.
 */
export function sortableTable(spec: TableSpec): Html {
  const head = spec.columns.map((c, i) => {
    const sorted = spec.sortedBy?.column === i ? spec.sortedBy.direction : undefined;
    return html`<th scope="col"${c.numeric ? new Html(' class="num" data-type="number"') : ''}${
      c.sortable === false ? new Html(' data-sortable="false"') : ''
    }${sorted ? new Html(` aria-sort="${sorted}"`) : ''}>${c.label}</th>`;
  });
  const body = spec.rows.map((row, r) => {
    const id = spec.rowIds?.[r];
    const cells = row.map((raw, i) => {
      const numeric = spec.columns[i]?.numeric === true;
      const c = cellOf(raw);
      const cls = [numeric ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ');
      return html`<td${cls ? html` class="${cls}"` : ''}${
        c.sort !== undefined ? html` data-sort="${String(c.sort)}"` : ''
      }${c.title ? html` title="${c.title}"` : ''}>${c.content}</td>`;
    });
    return html`<tr${id ? html` id="${id}"` : ''}>${cells}</tr>`;
  });
  return html`<table class="sortable${spec.className ? ` ${spec.className}` : ''}"><caption${spec.hiddenCaption ? new Html(' class="visually-hidden"') : ''}>${spec.caption}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * The page's only script: turns each sortable header into a button; a click sorts the body rows by that
 * column (numbers by `data-sort`, text by locale order), toggles the direction and sets `aria-sort`.
 */
export const SORT_SCRIPT = `(function () {
  'use strict';
  function key(cell, numeric) {
    if (!cell) return numeric ? -Infinity : '';
    var v = cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent;
    if (!numeric) return v.trim();
    var n = parseFloat(v);
    return isNaN(n) ? -Infinity : n;
  }
  function sortBy(table, th, index) {
    var numeric = th.getAttribute('data-type') === 'number';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
    var heads = table.tHead.rows[0].cells;
    for (var i = 0; i < heads.length; i++) heads[i].removeAttribute('aria-sort');
    th.setAttribute('aria-sort', dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var sign = dir === 'ascending' ? 1 : -1;
    rows.sort(function (a, b) {
      var x = key(a.cells[index], numeric);
      var y = key(b.cells[index], numeric);
      if (numeric) return x === y ? 0 : (x < y ? -sign : sign);
      return sign * x.localeCompare(y, undefined, { numeric: true });
    });
    for (var r = 0; r < rows.length; r++) body.appendChild(rows[r]);
  }
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length; t++) {
    (function (table) {
      if (!table.tHead || !table.tBodies[0]) return;
      var heads = table.tHead.rows[0].cells;
      for (var i = 0; i < heads.length; i++) {
        (function (th, index) {
          if (th.getAttribute('data-sortable') === 'false') return;
          var button = document.createElement('button');
          button.type = 'button';
          button.className = 'sort';
          while (th.firstChild) button.appendChild(th.firstChild);
          th.appendChild(button);
          button.addEventListener('click', function () { sortBy(table, th, index); });
        })(heads[i], i);
      }
    })(tables[t]);
  }
})();`;
