// The Advise view: an ordinary hand's board so far, the cards just dealt, own discards and
// cards seen; the server ranks every play of the dealt cards.

import { Busy, postJson } from "./api.js";
import { DeckPicker } from "./picker.js";
import { adviseResult, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

const ZONES = [
  { id: "top", label: "Top", short: "T" },
  { id: "middle", label: "Middle", short: "M" },
  { id: "bottom", label: "Bottom", short: "B" },
  { id: "cards", label: "Just dealt", short: "D" },
  { id: "discards", label: "My discards", short: "X" },
  { id: "dead", label: "Dead", short: "\u2020" },
];

export class AdviseView {
  constructor() {
    this.inputs = Object.fromEntries(ZONES.map((zone) =>
      [zone.id, document.getElementById(`advise-${zone.id}`)]));
    this.result = document.getElementById("advise-result");
    this.picker = new DeckPicker(document.getElementById("advise-picker"),
      ZONES.map((zone) => ({ ...zone, input: this.inputs[zone.id],
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
    const board = ["top", "middle", "bottom"].map((row) => this.inputs[row].value.trim())
      .join(" / ");
    const body = { board, cards: this.inputs.cards.value, ...this.settings.values() };
    for (const name of ["discards", "dead"]) {
      if (this.inputs[name].value.trim()) body[name] = this.inputs[name].value;
    }
    const answer = await this.busy.run("Ranking the plays\u2026",
      () => postJson("/api/advise", body));
    if (answer) showAnswer(this.result, adviseResult(answer));
  }
}
