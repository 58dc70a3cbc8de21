// The Solve view: pick the dealt cards, choose the settings, draw the optimal set.

import { Busy, postJson } from "./api.js";
import { DeckPicker } from "./picker.js";
import { nameHands, showAnswer, solveResult } from "./render.js";
import { Settings } from "./settings.js";

export class SolveView {
  constructor() {
    this.form = document.getElementById("solve-form");
    this.input = document.getElementById("solve-cards");
    this.result = document.getElementById("solve-result");
    this.picker = new DeckPicker(document.getElementById("solve-picker"),
      [{ id: "cards", label: "Dealt cards", short: "", input: this.input }]);
    this.settings = new Settings(document.getElementById("solve-settings"), "solve", {
      alert: document.getElementById("solve-error"),
      main: ["objective", "opponents", "fl_value", "samples", "seed", "alternatives",
        "time_limit"],
      table: ["against", "opponent_fantasyland", "dead"],
      onVariant: (variant) => { if (variant) this.picker.setDeck(variant); },
    });
    this.busy = new Busy({ buttons: [document.getElementById("solve-submit")],
      status: document.getElementById("solve-status"),
      alert: document.getElementById("solve-error"), result: this.result });
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.solve();
    });
    document.getElementById("solve-clear").addEventListener("click", () => this.picker.clear());
  }

  setVariants(data) {
    this.settings.setVariants(data.variants, data.default, data.objective);
  }

  async solve() {
    const body = { cards: this.input.value, ...this.settings.values() };
    const answer = await this.busy.run("Solving\u2026", () => postJson("/api/solve", body));
    if (answer) {
      showAnswer(this.result, solveResult(answer));
      nameHands(this.result, this.settings.rulesValues());
    }
  }
}
