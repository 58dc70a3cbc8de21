// The Play view: hands against the bot, as `fantasyland play` plays them in the terminal.
// The server deals and plays the bots (POST /api/play/start, /move, /hint, /next: one game
// a page, kept by the server under its id); the player taps the cards dealt into the rows of
// the board (the row editor, with the board so far fixed in its rows), and sees the table as
// a real one shows it, the adviser's ranking on request, the showdown with each decision
// graded, the session's figures and a chart of its points. Every finished hand is in the
// history (the table below), and the game's log can be saved for `fantasyland review`.

import { Busy, postJson } from "./api.js";
import { cardLine, cardsElement } from "./cards.js";
import { RowEditor } from "./editor.js";
import { svg } from "./history.js";
import { rowNames } from "./layout.js";
import { board, el, num, signed } from "./render.js";
import { Settings } from "./settings.js";

/** "+1.25 ± 0.80 points a hand over 12 hands": a mean of the session's figures. */
function meanText(mean, unit) {
  if (!mean.count) return "no hands";
  const error = mean.error === null ? "" : ` \u00b1 ${num(mean.error)}`;
  return `${signed(mean.mean)}${error} ${unit}s a hand over ${mean.count} `
    + `hand${mean.count === 1 ? "" : "s"}`;
}

/** The session's points, added up hand by hand, as a line over a zero line. */
export function pointsChart(points) {
  const width = 600;
  const height = 200;
  const pad = { left: 44, right: 12, top: 12, bottom: 28 };
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-labelledby": "play-chart-title", id: "play-chart" });
  const running = [0];
  for (const value of points) running.push(running[running.length - 1] + value);
  chart.append(svg("title", { id: "play-chart-title" }, `Points over the session: `
    + `${signed(running[running.length - 1], 0)} after ${points.length} hands`));
  const high = Math.max(1, ...running);
  const low = Math.min(-1, ...running);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, points.length);
  const y = (v) => pad.top + ((high - v) / (high - low)) * (height - pad.top - pad.bottom);
  for (const value of [high, 0, low]) {
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(value),
      y2: y(value), class: value === 0 ? "grid-line zero" : "grid-line" }));
    chart.append(svg("text", { x: pad.left - 6, y: y(value) + 4, class: "tick",
      "text-anchor": "end" }, signed(value, 0)));
  }
  chart.append(svg("polyline", { class: "series",
    points: running.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  chart.append(svg("text", { x: pad.left, y: height - 8, class: "tick" }, "hand 0"));
  chart.append(svg("text", { x: width - pad.right, y: height - 8, class: "tick",
    "text-anchor": "end" }, `hand ${points.length}`));
  return chart;
}

export class PlayView {
  constructor() {
    this.game = null;  // the server's id of the game on the table
    this.view = null;  // what the server shows of it
    this.hand = document.getElementById("play-hand");
    this.table = document.getElementById("play-table");
    this.unseen = document.getElementById("play-unseen");
    this.preview = document.getElementById("play-preview");
    this.hintBox = document.getElementById("play-hint-result");
    this.result = document.getElementById("play-result");
    this.session = document.getElementById("play-session");
    this.history = document.getElementById("play-history-body");
    this.log = document.getElementById("play-log");
    this.submit = document.getElementById("play-submit");
    this.best = document.getElementById("play-best");
    this.hint = document.getElementById("play-hint");
    this.reset = document.getElementById("play-reset");
    this.next = document.getElementById("play-next");
    this.newGame = document.getElementById("play-new");
    this.editor = new RowEditor(document.getElementById("play-editor"), {
      label: "Dealt: the cards left here are thrown away",
      onChange: () => this.update(),
    });
    this.settings = new Settings(document.getElementById("play-settings"), "play", {
      alert: document.getElementById("play-error"), ordinary: true, houseRules: false,
      main: ["objective", "opponents", "seed", "budget", "samples", "fantasyland",
        "duplicate"],
      endpoints: ["play/start"],
    });
    this.busy = new Busy({ buttons: [this.submit, this.best, this.hint, this.next,
      this.newGame], status: document.getElementById("play-status"),
    alert: document.getElementById("play-error"), result: this.result });
    this.submit.addEventListener("click", () => this.move(this.moveText()));
    this.best.addEventListener("click", () => this.move("="));
    this.hint.addEventListener("click", () => this.askHint());
    this.reset.addEventListener("click", () => this.editor.sendHome());
    this.next.addEventListener("click", () => this.step("/api/play/next", {}, "Dealing\u2026"));
    this.newGame.addEventListener("click", () => this.start());
    this.update();
  }

  setVariants(data) {
    this.settings.setVariants(data.variants, data.default, data.objective);
  }

  /** The first visit starts a game with the settings' defaults. */
  shown() {
    if (!this.game && !this.busy.running) this.start();
  }

  async start() {
    const answer = await this.busy.run("Dealing\u2026",
      () => postJson("/api/play/start", this.settings.values()));
    if (answer) {
      this.game = answer.game;
      this.history.replaceChildren(el("p", {}, "No hand finished in this game yet."));
      this.log.href = `/api/play/log?game=${answer.game}`;
      this.log.hidden = false;
      this.show(answer.view);
    }
    this.update();
  }

  /** The move the editor holds: a street's cards each with its row (x: thrown away), or a
   * Fantasyland set as TOP / MIDDLE / BOTTOM. */
  moveText() {
    if (this.view.turn.fantasyland) return this.editor.text();
    return this.editor.items.map((item) =>
      `${item.card} ${item.place === "hand" ? "x" : item.place}`).join(" ");
  }

  async move(text) {
    if (!this.view?.turn) return;
    await this.step("/api/play/move", { move: text }, "Playing\u2026");
  }

  async step(path, body, message) {
    const answer = await this.busy.run(message,
      () => postJson(path, { game: this.game, ...body }));
    if (answer) {
      this.show(answer.view);
      if (answer.history) this.showHistory(answer.history);
      if (answer.unsaved) this.busy.alert.textContent = answer.unsaved;
    }
    this.update();
  }

  async askHint() {
    const answer = await this.busy.run("Asking the adviser\u2026",
      () => postJson("/api/play/hint", { game: this.game }));
    if (answer) this.showHint(answer.hint);
    this.update();
  }

  update() {
    const turn = this.view?.turn ?? null;
    const running = this.busy.running;
    this.submit.disabled = !turn || !this.editor.full() || running;
    this.best.disabled = !turn || running;
    this.hint.disabled = !turn || running;
    this.reset.disabled = !turn;
    this.next.hidden = !this.view || Boolean(turn);
    this.next.disabled = running || !this.view || this.view.hand >= this.view.most_hands;
    this.preview.textContent = turn && this.editor.full()
      ? `You ${turn.fantasyland ? "set" : "play"}: ${this.moveText()}` : "";
  }

  show(view) {
    this.view = view;
    const turn = view.turn;
    const me = view.seats[0];
    const button = view.seats.find((seat) => seat.on_button).name;
    const where = turn ? (turn.fantasyland ? `Fantasyland, ${turn.cards.length} cards`
      : `street ${turn.street}`) : "the showdown";
    this.hand.textContent = `Hand ${view.hand} \u00b7 ${where} \u00b7 ${button} on the `
      + `button \u00b7 ${view.variant} \u00b7 ${view.settings.objective} \u00b7 seed `
      + `${view.settings.seed} \u00b7 against the ${view.bot} bot`;
    this.hand.dataset.hand = view.hand;
    this.hand.dataset.seed = view.settings.seed;
    this.hand.dataset.street = turn ? turn.street : "";
    this.table.replaceChildren(...view.seats.filter((seat) => seat.seat !== 0)
      .map((seat) => this.seatBoard(seat)));
    this.hintBox.replaceChildren();
    if (turn) {
      this.editor.setCards(turn.cards, {
        fixed: turn.fantasyland ? null : me.rows, keep: turn.fantasyland ? null : turn.keep });
      this.editor.lock(false);
      const { ranks, suits } = turn.unseen;
      this.unseen.textContent = `Unseen: ${Object.entries(ranks).map(([r, n]) => `${r}:${n}`)
        .join(" ")} | ${Object.entries(suits).map(([s, n]) => `${s}:${n}`).join(" ")}`
        + (me.discards?.length ? ` \u00b7 your discards ${me.discards.join(" ")}` : "")
        + (turn.fouled ? " \u00b7 your board already fouls" : "");
      this.result.replaceChildren();
    } else {
      this.editor.setCards([], { fixed: me.rows, keep: 0 });
      this.editor.lock(true);
      this.unseen.textContent = "";
      this.result.replaceChildren(this.showdown(view));
      this.next.focus({ preventScroll: true });
    }
    this.showSession(view);
  }

  /** Another seat's board as the table shows it. */
  seatBoard(seat) {
    const label = `${seat.name}${seat.on_button ? " (button)" : ""}`;
    if (seat.rows === null) {
      return el("div", { class: "seat", data: { seat: seat.seat } }, el("h3", {}, label),
        el("p", { class: "help" }, `In Fantasyland with ${seat.fantasyland} cards: hidden `
          + "until the showdown"));
    }
    const rows = rowNames().map((row) => el("div", { class: "board-row", data: { row } },
      el("span", { class: "row-name" }, row), cardsElement(seat.rows[row], { small: true })));
    return el("div", { class: "seat", data: { seat: seat.seat } }, el("h3", {}, label),
      el("div", { class: "board" }, rows));
  }

  showdown(view) {
    const down = view.showdown;
    const unit = view.unit;
    const seats = down.seats.map((seat) => {
      const report = seat.report;
      const hands = Object.fromEntries(rowNames().map((row) => [row, report.rows[row].hand]));
      const royalties = Object.fromEntries(rowNames().map((row) =>
        [row, report.rows[row].royalty]));
      let what = report.fouled ? "fouled" : `royalties ${report.royalties.total}`;
      if (seat.entered) what += `, Fantasyland with ${seat.entered} cards`;
      else if (seat.stays) what += ", stays in Fantasyland";
      return el("div", { class: "seat", data: { seat: seat.seat } },
        el("h3", {}, `${seat.name}: ${signed(seat.points, 0)} ${unit}s`),
        board(report.board, { hands: report.fouled ? null : hands,
          royalties: report.fouled ? null : royalties, finished: false }),
        el("p", {}, what, seat.discards.length ? ` \u00b7 discards ${seat.discards.join(" ")}`
          : ""));
    });
    const words = { 1: "won", 0: "tied", "-1": "lost" };
    const pairs = down.pairs.map((pair) => {
      const [i, j] = pair.seats;
      const detail = pair.rows === null ? "a foul" : rowNames().map((row) =>
        `${row} ${words[pair.rows[row]]}`).join(", ") + (pair.scoop ? ", a scoop" : "");
      return el("li", {}, `${down.seats[i].name} v ${down.seats[j].name}: ${detail}; `
        + `${signed(pair.points, 0)}`);
    });
    const grades = down.streets.map((g) => {
      let verdict;
      if (g.ev_lost === null) verdict = "the board already fouled";
      else if (g.play === g.best || g.ev_lost === 0) verdict = "the best play";
      else {
        const error = g.exact || g.ev_lost_error === null ? "" : ` \u00b1 ${num(g.ev_lost_error)}`;
        verdict = `EV lost ${num(g.ev_lost)}${error}; best ${g.best}`;
      }
      return el("tr", { data: { street: g.street } }, el("td", {}, String(g.street)),
        el("td", { class: "card-text" }, cardLine(g.play)), el("td", {}, verdict));
    });
    if (down.set) {
      const g = down.set;
      grades.push(el("tr", { data: { street: 0 } }, el("td", {}, "Fantasyland"),
        el("td", { class: "card-text" }, cardLine(g.played)),
        el("td", {}, g.optimal ? "optimal" : `EV lost ${num(g.ev_lost)}; best ${g.best}`)));
    }
    return el("div", { class: "showdown", id: "play-showdown" },
      el("h3", {}, `Showdown, hand ${view.hand}`),
      el("div", { class: "seats" }, seats), el("ul", { class: "pairs" }, pairs),
      el("div", { class: "scroll" }, el("table", { class: "grades", id: "play-grades" },
        el("caption", {}, "Your decisions, graded"),
        el("thead", {}, el("tr", {}, ["Street", "Your play", "Grade"].map((h) =>
          el("th", { scope: "col" }, h)))),
        el("tbody", {}, grades))));
  }

  showHint(hint) {
    let body;
    if (hint.kind === "set") {
      body = [el("p", {}, `The solver's set (worth ${num(hint.value)}, ${hint.objective}; `
        + `${hint.stays ? "stays in Fantasyland" : "does not stay"}):`),
      board(hint.board, { finished: false }),
      hint.discards.length ? el("p", {}, `Discards ${hint.discards.join(" ")}`) : null];
    } else if (hint.kind === "fouled") {
      body = [el("p", {}, "Your board already fouls: every play is worth the same.")];
    } else {
      const items = hint.ranked.map((play) => {
        let figure;
        if (play.screened) figure = "not rolled out (screened)";
        else if (play.source === "model") figure = `model ${num(play.model)}`;
        else {
          figure = `${num(play.value)}${play.error === null ? "" : ` \u00b1 ${num(play.error)}`}`
            + `, fouls ${Math.round(100 * play.foul_chance)}%`;
        }
        return el("li", {}, el("span", { class: "card-text" }, cardLine(play.play)),
          `: ${figure}`);
      });
      const how = hint.exact ? "exact" : "rollouts and the model";
      body = [el("p", {}, `The adviser's ranking (${how}, ${hint.plays} plays; the best `
        + "first):"), el("ol", { id: "play-ranking" }, items)];
    }
    this.hintBox.replaceChildren(el("div", { class: "hint" }, body));
  }

  showSession(view) {
    const f = view.figures;
    const unit = view.unit;
    const entries = Object.entries(f.entries).map(([cards, n]) => `${n} with ${cards} cards`)
      .join(", ") || "none";
    const parts = [el("h3", {}, "This game"), el("dl", { class: "score", id: "play-figures",
      data: { hands: f.hands } },
    el("dt", {}, "Points"), el("dd", {}, meanText(f.points, unit)),
    el("dt", {}, "On the button"), el("dd", {}, meanText(f.on_button, unit)),
    el("dt", {}, "Not on the button"), el("dd", {}, meanText(f.not_on_button, unit)),
    el("dt", {}, "Fouls"), el("dd", {}, String(f.fouls)),
    el("dt", {}, "Fantasyland entries"), el("dd", {}, entries),
    el("dt", {}, "EV lost a decision"), el("dd", {}, f.ev_lost_a_decision === null ? "none "
      + "graded" : `${num(f.ev_lost_a_decision, 3)} over ${f.decisions} decisions`),
    f.duplicate ? el("dt", {}, "Duplicate deals") : null,
    f.duplicate ? el("dd", {}, meanText(f.duplicate, unit)) : null)];
    if (view.points.length) parts.push(pointsChart(view.points));
    this.session.replaceChildren(...parts);
  }

  /** The game's hands as the history keeps them, newest first. */
  showHistory(rows) {
    this.history.replaceChildren(el("div", { class: "scroll" }, el("table", {
      class: "history", id: "play-history-table" },
    el("caption", {}, `The ${rows.length} hand${rows.length === 1 ? "" : "s"} of this game in `
      + "the history, newest first"),
    el("thead", {}, el("tr", {}, ["Hand", "Your board", "Points", "Button"].map((h) =>
      el("th", { scope: "col" }, h)))),
    el("tbody", {}, [...rows].reverse().map((row) => el("tr", { data: { hand: row.number } },
      el("td", {}, String(row.number)),
      el("td", { class: "card-text" }, row.fouled ? [...cardLine(row.board), " (fouled)"]
        : cardLine(row.board)),
      el("td", { class: "num" }, signed(row.points, 0)),
      el("td", {}, row.on_button ? "yes" : "no")))))));
  }
}

