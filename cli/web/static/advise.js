// The Advise view: an ordinary hand's board so far, the cards just dealt, own discards and
// cards seen; the server ranks every play of the dealt cards.

import { Busy, postJson } from "./api.js";
import { rowLabel, rowNames } from "./layout.js";
import { DeckPicker } from "./picker.js";
import { adviseResult, el, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

// Where a clicked card goes: a row of the set (its field built here, one per row), or the
// fields index.html has.
const OTHERS = [
  { id: "cards", label: "Just dealt", short: "D" },
  { id: "discards", label: "My discards", short: "X" },
  { id: "dead", label: "Dead", short: "\u2020" },
];

/** A row's line: its round button (where a clicked card goes) and its cards so far. */
function rowLine(row, first) {
  const label = `${rowLabel(row)} row so far`;
  return el("div", { class: "zone-line" },
    el("input", { type: "radio", name: "advise-zone", value: row, id: `advise-zone-${row}`,
      checked: first, "aria-label": `Clicked cards go to: ${label}` }),
    el("label", { for: `advise-${row}` }, label),
    el("input", { id: `advise-${row}`, type: "text", autocomplete: "off",
      spellcheck: "false" }));
}

export class AdviseView {
  constructor() {
    const rows = rowNames();
    document.getElementById("advise-zone-cards").closest(".zone-line")
      .before(...rows.map((row, i) => rowLine(row, i === 0)));
    const zones = [...rows.map((row) => ({ id: row, label: rowLabel(row),
      short: rowLabel(row)[0] })), ...OTHERS];
    this.inputs = Object.fromEntries(zones.map((zone) =>
      [zone.id, document.getElementById(`advise-${zone.id}`)]));
    this.result = document.getElementById("advise-result");
    this.picker = new DeckPicker(document.getElementById("advise-picker"),
      zones.map((zone) => ({ ...zone, input: this.inputs[zone.id],
        radio: document.querySelector(`input[name="advise-zone"][value="${zone.id}"]`) })));
    this.settings = new Settings(document.getElementById("advise-settings"), "advise", {
      alert: document.getElementById("advise-error"),
      main: ["objective", "opponents", "samples", "budget", "seed"],
      table: ["against", "opponent_fantasyland"],
      ordinary: true,
      onVariant: (variant) => { if (variant) this.picker.setDeck(variant); },
    });
    this.busy = new Busy({ buttons: [document.getElementById("advise-submit")],
      status: document.getElementById("advise-status"),
      alert: document.getElementById("advise-error"), result: this.result,
      progress: document.getElementById("advise-progress") });
    document.getElementById("advise-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.advise();
    });
    document.getElementById("advise-clear").addEventListener("click", () => this.picker.clear());
  }

  setVariants(data) {
    const ordinary = data.variants.filter((variant) => variant.ordinary);
    this.settings.setVariants(ordinary, data.default, data.objective);
  }

  async advise() {
    const board = rowNames().map((row) => this.inputs[row].value.trim()).join(" / ");
    const body = { board, cards: this.inputs.cards.value, ...this.settings.values() };
    for (const name of ["discards", "dead"]) {
      if (this.inputs[name].value.trim()) body[name] = this.inputs[name].value;
    }
    const answer = await this.busy.run("Ranking the plays\u2026",
      () => postJson("/api/advise", body));
    if (answer) showAnswer(this.result, adviseResult(answer));
  }
}
