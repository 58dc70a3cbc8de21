// The Score view: a finished set scored alone, or a finished table of 2 to 4 sets settled
// pair by pair, as `fantasyland score --against` settles it (docs/scoring.md).

import { Busy, postJson } from "./api.js";
import { cardsElement } from "./cards.js";
import { rowNames } from "./layout.js";
import { board, el, showAnswer } from "./render.js";
import { Settings } from "./settings.js";

const OTHERS = 3;  // a table seats 2 to 4 players

function net(value) {
  return value > 0 ? `+${value}` : String(value);
}

function playerName(i) {
  return i === 0 ? "you" : `against ${i}`;
}

/** A scored set (score --json's object): its rows named, with royalties, and the verdict. */
function scoredSet(set, name) {
  const hands = Object.fromEntries(rowNames().map((row) => [row, set.rows[row].hand]));
  const royalties = Object.fromEntries(rowNames().map((row) => [row, set.rows[row].royalty]));
  const verdict = set.fouled ? el("p", { class: "warning" }, `Fouled: ${set.foul_reasons
    .join("; ")}`)
    : el("p", {}, [set.royalties.total ? `royalties ${set.royalties.total}` : "no royalties",
      set.fantasyland_cards ? `Fantasyland entry with ${set.fantasyland_cards} cards` : null,
      set.stays ? `stays (on ${set.stay_rows.join(", ")})` : null].filter(Boolean)
      .join(" \u00b7 "));
  // Rules without royalties (classic Chinese Poker) would show +0 on every row.
  const paid = set.royalties.total ? royalties : null;
  return [board(set.board, { hands, royalties: paid, jokers: Object.fromEntries(rowNames().map(
    (row) => [row, set.rows[row].jokers])), name }), verdict];
}

function seat(player, i) {
  const title = el("h4", {}, `${playerName(i)}: ${net(player.net)}`);
  let body;
  if (player.surrendered) body = [el("p", {}, "surrendered")];
  else if (player.natural) {
    body = [el("p", {}, `natural: ${player.natural.hand} (${player.natural.value})`),
      cardsElement(player.natural.cards, { small: true })];
  } else body = scoredSet(player.set, `player-${i}`);
  return el("div", { class: "seat", data: { player: i, net: player.net } }, title, body);
}

/** A settled table: each player's net, every pair, and each player's set. */
export function tableResult(result) {
  const players = result.players;
  const nets = el("table", { class: "figures", data: { table: "settlement" } },
    el("caption", {}, `${result.variant}: ${players.length} players, every pair settled`),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"),
      el("th", { scope: "col" }, "Net"))),
    el("tbody", {}, players.map((player, i) => el("tr", { data: { player: i } },
      el("th", { scope: "row" }, playerName(i)), el("td", { class: "num" }, net(player.net))))));
  const pairs = [];
  for (let i = 0; i < players.length; i++) {
    for (let j = i + 1; j < players.length; j++) {
      pairs.push(el("li", { data: { pair: `${i}-${j}` } },
        `${playerName(i)} v ${playerName(j)}: ${net(players[i].pairs[j])}`));
    }
  }
  return el("div", { class: "answer" }, nets, el("ul", { class: "pairs" }, pairs),
    el("div", { class: "side-by-side seats" }, players.map(seat)));
}

/** One set scored alone: its rows, royalties, foul and Fantasyland. */
export function setResult(result) {
  return el("div", { class: "answer" },
    el("p", { class: "summary" }, `${result.variant}: ${result.fouled ? "the set fouls"
      : "a legal set"}`),
    el("div", { class: "side-by-side seats" },
      el("div", { class: "seat", data: { player: 0 } }, scoredSet(result, "scored"))));
}

export class ScoreView {
  constructor() {
    this.board = document.getElementById("score-board");
    this.others = Array.from({ length: OTHERS },
      (_, i) => document.getElementById(`score-against-${i + 1}`));
    this.result = document.getElementById("score-result");
    this.settings = new Settings(document.getElementById("score-settings"), "score", {
      alert: document.getElementById("score-error"),
    });
    this.busy = new Busy({ buttons: [document.getElementById("score-submit")],
      status: document.getElementById("score-status"),
      alert: document.getElementById("score-error"), result: this.result });
    document.getElementById("score-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.score();
    });
  }

  setVariants(data) {
    this.settings.setVariants(data.variants, data.defaults?.score ?? data.default, data.objective);
  }

  async score() {
    const against = this.others.map((input) => input.value.trim()).filter(Boolean);
    const body = { board: this.board.value, ...this.settings.values() };
    if (against.length) body.against = against;
    const answer = await this.busy.run("Scoring\u2026", () => postJson("/api/score", body));
    if (answer) {
      showAnswer(this.result, answer.players ? tableResult(answer) : setResult(answer));
    }
  }
}
