// The Train view: a Fantasyland hand is dealt, the player sets it with the row editor, the
// server grades it against the optimum and keeps it in the history.

import { Busy, getJson, postJson } from "./api.js";
import { RowEditor } from "./editor.js";
import { SetPreview } from "./preview.js";
import { historyTable, sessionChart, trend } from "./history.js";
import { el, gradeResult, nameHands, num, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

/** A session id of the page load's own (crypto.randomUUID needs a secure context, which a
 * page served to another machine over plain http is not). */
function sessionId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export class TrainView {
  constructor() {
    this.session = sessionId();
    this.hand = null;  // {seed, number, cards, variant} of the hand on the table
    this.graded = false;
    this.result = document.getElementById("train-result");
    this.info = document.getElementById("train-hand");
    this.submit = document.getElementById("train-submit");
    this.next = document.getElementById("train-next");
    this.deal = document.getElementById("train-deal");
    this.reset = document.getElementById("train-reset");
    this.preview = new SetPreview(document.getElementById("train-preview"));
    this.editor = new RowEditor(document.getElementById("train-editor"), {
      label: "Hand: cards left here are discarded",
      onChange: () => {
        this.update();
        const { sizes, ...rules } = this.hand.dealtWith;  // score takes the rules alone
        this.preview.show(this.editor.full() ? this.editor.text() : "", rules);
      },
    });
    this.settings = new Settings(document.getElementById("train-settings"), "train", {
      alert: document.getElementById("train-error"),
      main: ["objective", "fl_value", "seed", "sizes", "opponents", "samples"],
      endpoints: ["train/deal", "train/grade"],  // the seed and sizes deal, the rest grade
    });
    this.busy = new Busy({ buttons: [this.submit, this.next, this.deal],
      status: document.getElementById("train-status"),
      alert: document.getElementById("train-error"), result: this.result });
    this.submit.addEventListener("click", () => this.grade());
    this.next.addEventListener("click", () => this.dealHand(this.hand ? this.hand.number + 1 : 1));
    this.deal.addEventListener("click", () => this.dealHand(1, { fresh: true }));
    this.reset.addEventListener("click", () => this.editor.sendHome());
    document.getElementById("train-history-refresh")
      .addEventListener("click", () => this.loadHistory());
    this.update();
  }

  setVariants(data) {
    // Training deals Fantasyland hands, the default variant's as the CLI's train does.
    const fantasyland = data.variants.filter((variant) => variant.fantasyland);
    this.settings.setVariants(fantasyland, data.default, data.objective);
  }

  /** The first visit deals the first hand and shows the history. */
  shown() {
    if (!this.hand && !this.busy.running) {
      this.dealHand(1, { fresh: true });
      this.loadHistory();
    }
  }

  // What the hand is dealt from, and graded under: the variant (or house rules) and the
  // hand sizes; the grade deals the hand again from them, its seed and its number.
  rules() {
    const { variant, rules, sizes } = this.settings.values();
    return { ...(rules ? { rules } : { variant }), ...(sizes ? { sizes } : {}) };
  }

  async dealHand(number, { fresh = false } = {}) {
    const body = { ...this.rules(), number };
    const seed = this.settings.values().seed;
    if (fresh && seed !== undefined) body.seed = seed;
    else if (!fresh && this.hand) body.seed = this.hand.seed;
    const hand = await this.busy.run("Dealing\u2026", () => postJson("/api/train/deal", body));
    if (hand) {
      this.hand = { ...hand, dealtWith: this.rules() };
      this.graded = false;
      this.editor.setCards(hand.cards);
      this.preview.show("", {});
      this.editor.lock(false);
      this.result.replaceChildren();
      this.info.textContent = `Hand ${hand.number} \u00b7 seed ${hand.seed} \u00b7 `
        + `${hand.variant} \u00b7 ${hand.cards.length} cards`;
      this.info.dataset.seed = hand.seed;
      this.info.dataset.number = hand.number;
    }
    this.update();
  }

  update() {
    this.submit.disabled = !this.hand || this.graded || !this.editor.full() || this.busy.running;
    this.reset.disabled = !this.hand || this.graded;
  }

  async grade() {
    if (!this.hand || !this.editor.full() || this.graded) return;
    // Opponents and samples count under ev only (a royalties grade has no table).
    const { objective, fl_value: flValue, opponents, samples } = this.settings.values();
    const body = { session: this.session, seed: this.hand.seed, number: this.hand.number,
      set: this.editor.text(), ...this.hand.dealtWith, objective, fl_value: flValue,
      opponents, samples };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const answer = await this.busy.run("Grading\u2026", () => postJson("/api/train/grade", body));
    if (answer) {
      this.graded = true;
      this.editor.lock(true);
      showAnswer(this.result, gradeResult(answer.grade));
      const { sizes, ...rules } = this.hand.dealtWith;
      nameHands(this.result, rules);
      // A grade the server could not store (a full disk) is shown all the same, with why.
      if (answer.unsaved) this.busy.alert.textContent = answer.unsaved;
      else this.showScore(answer.score);
      this.next.focus({ preventScroll: true });
      this.loadHistory();
    }
    this.update();
  }

  showScore(score) {
    const share = `${Math.round(100 * score.optimal_share)}%`;
    const box = document.getElementById("train-score");
    box.replaceChildren(el("h3", {}, "This session"), el("dl", { class: "score",
      data: { hands: score.hands, optimal: score.optimal } },
    el("dt", {}, "Hands"), el("dd", {}, String(score.hands)),
    el("dt", {}, "Optimal"), el("dd", {}, `${score.optimal} (${share})`),
    el("dt", {}, "Fouls"), el("dd", {}, String(score.fouls)),
    el("dt", {}, "EV lost"),
    el("dd", {}, `${num(score.ev_lost)} (mean ${num(score.mean_ev_lost)})`)));
  }

  async loadHistory() {
    const panel = document.getElementById("train-history-body");
    try {
      const history = await getJson("/api/train/history?limit=100");
      const parts = [el("p", { class: "trend", id: "train-trend" }, trend(history.hands))];
      if (history.hands.length) {
        parts.push(el("h4", {}, "Mean EV lost per session"), sessionChart(history.sessions),
          el("div", { class: "scroll" }, historyTable(history.hands)));
      }
      panel.replaceChildren(...parts);
    } catch (error) {
      panel.replaceChildren(el("p", { class: "error" }, `history: ${error.message}`));
    }
  }
}
