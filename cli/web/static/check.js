// The Check view: a dealt hand and the set that was played, graded as Train grades, without
// touching the training history. The set is typed ("TOP / MIDDLE / BOTTOM") or placed with
// the row editor; the two stay in sync.

import { Busy, postJson } from "./api.js";
import { parseCards, parseRows } from "./cards.js";
import { RowEditor } from "./editor.js";
import { SetPreview } from "./preview.js";
import { DeckPicker } from "./picker.js";
import { gradeResult, nameHands, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

export class CheckView {
  constructor() {
    this.cards = document.getElementById("check-cards");
    this.set = document.getElementById("check-set");
    this.result = document.getElementById("check-result");
    this.preview = new SetPreview(document.getElementById("check-preview"));
    this.editor = new RowEditor(document.getElementById("check-editor"), {
      label: "Dealt cards not placed (the discards)",
      onChange: () => {
        this.set.value = this.editor.text();
        this.showPreview();
      },
    });
    this.picker = new DeckPicker(document.getElementById("check-picker"),
      [{ id: "cards", label: "Dealt cards", short: "", input: this.cards }],
      { onChange: () => this.dealtChanged() });
    this.settings = new Settings(document.getElementById("check-settings"), "check", {
      alert: document.getElementById("check-error"),
      main: ["objective", "opponents", "fl_value", "samples", "seed"],
      table: ["against", "opponent_fantasyland", "dead"],
      onVariant: (variant) => { if (variant) this.picker.setDeck(variant); },
    });
    this.set.addEventListener("input", () => this.setTyped());
    this.busy = new Busy({ buttons: [document.getElementById("check-submit")],
      status: document.getElementById("check-status"),
      alert: document.getElementById("check-error"), result: this.result });
    document.getElementById("check-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.check();
    });
    document.getElementById("check-clear").addEventListener("click", () => {
      this.picker.clear();
      this.set.value = "";
    });
  }

  setVariants(data) {
    this.settings.setVariants(data.variants, data.default, data.objective);
  }

  dealtChanged() {
    const placed = this.set.value === this.editor.text();  // the editor wrote the set
    this.editor.setCards(parseCards(this.cards.value).cards, { stay: true });
    if (placed) this.set.value = this.editor.text();
    else this.setTyped();
  }

  // A typed set moves the editor's cards when it reads as three rows; the text is kept.
  setTyped() {
    const rows = parseRows(this.set.value);
    if (rows) this.editor.setRows(rows);
    this.showPreview();
  }

  showPreview() {
    const { variant, rules } = this.settings.values();
    const board = this.editor.full() ? this.editor.text() : "";
    this.preview.show(board, rules ? { rules } : { variant });
  }

  async check() {
    const body = { cards: this.cards.value, set: this.set.value, ...this.settings.values() };
    const answer = await this.busy.run("Grading\u2026", () => postJson("/api/check", body));
    if (answer) {
      showAnswer(this.result, gradeResult(answer));
      nameHands(this.result, this.settings.rulesValues());
    }
  }
}
