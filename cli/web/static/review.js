// The Review view: a history of ordinary hands (JSON Lines, pasted or opened from a file)
// graded decision by decision, as `fantasyland review` grades it (docs/review.md).

import { Busy, postJson } from "./api.js";
import { cardLine, printedCard } from "./cards.js";
import { rowNames } from "./layout.js";
import { el, num, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

/** EV lost as the CLI's review writes it: "6.00", "1.25 ± 0.40", the best and the screened
 * in words. */
function lostText(decision) {
  if (decision.is_best) return "0 (best)";
  if (decision.ev_lost === null) return "screened: not rolled out";
  const error = decision.ev_lost_error ? ` \u00b1 ${num(decision.ev_lost_error)}` : "";
  return `${num(decision.ev_lost)}${error}${decision.close ? " (close)" : ""}`;
}

/** A play as the CLI's review writes it: the cards of each row it used, top first, in the
 * order they were dealt, then the discard ("T♦ middle, A♣ bottom, discard 7♥"). A card
 * dealt twice (two decks) lists its rows in ``rows``. */
function playText(play, dealt) {
  const left = {};
  for (const [card, row] of Object.entries(play.rows)) left[card] = [].concat(row);
  const placed = dealt.split(" ").map((card) => [card, (left[card] || []).shift()]);
  const parts = rowNames().map((row) => placed.filter(([, at]) => at === row))
    .filter((cards) => cards.length)
    .map((cards) => `${cards.map(([card]) => printedCard(card)).join(" ")} ${cards[0][1]}`);
  if (play.discard) parts.push(`discard ${printedCard(play.discard)}`);
  return parts.join(", ");
}

function decisionRow(decision) {
  return el("tr", { data: { line: decision.line, best: String(decision.is_best) } },
    el("td", { class: "num" }, decision.line),
    el("td", { class: "num" }, decision.street),
    el("td", { class: "card-text" }, cardLine(decision.board)),
    el("td", { class: "card-text" }, cardLine(decision.cards)),
    el("td", {}, playText(decision.played, decision.cards)),
    el("td", { class: "num ev-lost" }, lostText(decision)),
    el("td", {}, decision.is_best ? "" : playText(decision.best, decision.cards)));
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The decisions in a table, then the summary the CLI prints under it. */
export function reviewResult(result) {
  const s = result.summary;
  const table = el("div", { class: "scroll" }, el("table", { class: "decisions",
    data: { table: "decisions" } },
  el("caption", {}, "Decisions"),
  el("thead", {}, el("tr", {}, ["Line", "Street", "Board", "Cards", "Played", "EV lost",
    "Best play"].map((name) => el("th", { scope: "col" }, name)))),
  el("tbody", {}, result.decisions.map(decisionRow))));
  const lines = [
    ["Decisions", `${s.decisions} graded`
      + (s.screened ? ` (${s.screened} screened: not rolled out)` : "")
      + `, ${plural(s.best_played, "best play")}`, "decisions"],
    ["EV lost", `${num(s.ev_lost)} \u00b1 ${num(s.ev_lost_error)} (${result.objective})`,
      "ev_lost"],
  ];
  const worst = result.decisions.find((d) => d.line === s.worst_line);
  if (worst && worst.ev_lost > 0) {
    lines.push(["Worst", `line ${worst.line}, street ${worst.street}: `
      + `${playText(worst.played, worst.cards)} lost ${lostText({ ...worst, close: false })}; `
      + `best ${playText(worst.best, worst.cards)}`, "worst"]);
  }
  if (result.bad_lines.length) {
    lines.push(["Skipped", `${plural(result.bad_lines.length, "bad line")}: `
      + result.bad_lines.map((bad) => bad.line).join(", "), "skipped"]);
  }
  const summary = el("dl", { class: "review-summary" }, lines.flatMap(([label, text, key]) => [
    el("dt", {}, label), el("dd", { data: { key } }, text)]));
  const bad = result.bad_lines.length ? el("ul", { class: "bad-lines" },
    result.bad_lines.map((line) => el("li", { data: { line: line.line } },
      `line ${line.line}: ${line.message}`))) : null;
  return el("div", { class: "answer" }, table, summary, bad);
}

export class ReviewView {
  constructor() {
    this.history = document.getElementById("review-history");
    this.file = document.getElementById("review-file");
    this.result = document.getElementById("review-result");
    this.alert = document.getElementById("review-error");
    this.settings = new Settings(document.getElementById("review-settings"), "review", {
      alert: this.alert,
      main: ["objective", "opponents", "budget", "seed"],
      ordinary: true,
    });
    this.busy = new Busy({ buttons: [document.getElementById("review-submit")],
      status: document.getElementById("review-status"), alert: this.alert,
      result: this.result, progress: document.getElementById("review-progress") });
    this.file.addEventListener("change", () => this.open());
    document.getElementById("review-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.review();
    });
  }

  setVariants(data) {
    this.settings.setVariants(data.variants, data.defaults?.review ?? data.default, data.objective);
  }

  /** A history file opened is read into the text field, where it can still be edited. */
  async open() {
    const [file] = this.file.files;
    if (!file) return;
    try {
      this.history.value = await file.text();
      this.alert.textContent = "";
    } catch (error) {
      this.alert.textContent = `cannot read ${file.name}: ${error.message}`;
    }
  }

  async review() {
    const body = { history: this.history.value, ...this.settings.values() };
    const answer = await this.busy.run("Grading the decisions\u2026",
      () => postJson("/api/review", body));
    if (answer) showAnswer(this.result, reviewResult(answer));
  }
}
