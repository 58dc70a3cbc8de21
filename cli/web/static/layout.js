// The rows of a set, top first, and the cards each holds, as the server serves them
// (/api/variants "rows"): app.js sets them before the views are built, and every script
// that names a row or counts its cards reads them here.

let rows = [];

/** Take the server's rows: [{name: "top", cards: 3}, ...]. */
export function setRows(served) {
  rows = served.map(({ name, cards }) => Object.freeze({ name, cards }));
}

/** The row names, top first. */
export function rowNames() {
  return rows.map((row) => row.name);
}

/** The cards row `name` holds. */
export function rowSize(name) {
  return rows.find((row) => row.name === name).cards;
}

/** The cards of a set. */
export function setSize() {
  return rows.reduce((total, row) => total + row.cards, 0);
}

/** "Top": a row's name as a label starts. */
export function rowLabel(name) {
  return name[0].toUpperCase() + name.slice(1);
}

/** {top: [], middle: [], bottom: []}: an empty list for every row. */
export function emptyRows() {
  return Object.fromEntries(rowNames().map((name) => [name, []]));
}
