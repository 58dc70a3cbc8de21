// Answers of the API drawn as cards and short tables: a solved hand, a grade, ranked plays.

import { postJson } from "./api.js";
import { cardsElement } from "./cards.js";
import { emptyRows, rowNames } from "./layout.js";

/** Build an element: el("p", {class: "x", data: {a: 1}}, "text", child). */
export function el(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "data") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export function num(value, digits = 2) {
  if (value === null || value === undefined) return "\u2013";
  return Number(value).toFixed(digits).replace(/^-(0\.0*)$/, "$1");
}

/** A count as the CLI writes it: 300,360. */
export function count(value) {
  return Number(value).toLocaleString("en-US");
}

/** Points as the CLI's solve writes them: two decimals at most, no trailing zeros (36,
 * 13.82). */
export function points(value) {
  const text = Number(value).toFixed(2).replace(/\.?0+$/u, "");
  return text === "" || text === "-0" ? "0" : text;
}

/** Put an answer in its place and bring its top into view: the form above it may fill the
 * screen, and an answer below the fold is an answer not seen. */
export function showAnswer(container, answer) {
  container.replaceChildren(answer);
  const top = container.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight - 48) {
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    container.scrollIntoView({ block: "start", behavior: still ? "auto" : "instant" });
  }
}

export function signed(value, digits = 2) {
  const text = num(value, digits);
  return value > 0 && Number(text) !== 0 ? `+${text}` : text;
}

function percent(value, digits = 0) {
  return `${(100 * value).toFixed(digits)}%`;
}

/** The rows of a set, top first, each with its hand name and royalty when given; a
 * finished set drawn without its hand names is marked, for `nameHands` to name. */
export function board(set, { hands = null, royalties = null, jokers = null, name = "set",
  finished = true } = {}) {
  const rows = rowNames().map((row) => el("div", { class: "board-row", data: { row } },
    el("span", { class: "row-name" }, row),
    cardsElement(set[row], { faces: jokers?.[row] ?? [] }),
    el("span", { class: "row-info" },
      hands ? el("span", { class: "hand-name" }, hands[row]) : null,
      royalties ? el("span", { class: "royalty", title: "royalty" }, `+${royalties[row]}`)
        : null)));
  return el("div", { class: "board", data: { board: name },
    "data-unnamed": !hands && finished }, rows);
}

/** Name the hands of the finished sets drawn without them, by asking the server to score
 * each (POST /api/score) under the request's rules: every set shown then reads as the
 * optimum does. A set the server cannot score keeps its cards alone. */
export async function nameHands(container, rules) {
  const boards = [...container.querySelectorAll(".board[data-unnamed]")];
  await Promise.all(boards.map(async (element) => {
    const text = rowNames().map((row) => [...element.querySelectorAll(`[data-row=${row}] .card`)]
      .map((card) => card.dataset.card).join(" ")).join(" / ");
    let score;
    try {
      score = await postJson("/api/score", { board: text, ...rules });
    } catch {
      return;
    }
    for (const row of rowNames()) {
      element.querySelector(`[data-row=${row}] .row-info`)
        .prepend(el("span", { class: "hand-name" }, score.rows[row].hand));
    }
    element.removeAttribute("data-unnamed");
  }));
}

function discards(cards, name = "discards") {
  return el("p", { class: "discards", data: { discards: cards.join(" "), name } },
    el("span", { class: "label" }, "Discards: "),
    cards.length ? cardsElement(cards, { small: true }) : "none");
}

function stays(value) {
  return el("span", { class: value ? "stays yes" : "stays no", data: { stays: String(value) } },
    `stays: ${value ? "yes" : "no"}`);
}

function table(caption, rows, name) {
  return el("table", { class: "figures", data: { table: name } },
    el("caption", {}, caption),
    el("tbody", {}, rows.map(([label, value, key]) => el("tr", { data: { key } },
      el("th", { scope: "row" }, label), el("td", {}, value)))));
}

function evTable(ev) {
  const rows = [
    ["Net royalties", signed(ev.royalties), "royalties"],
    ["Rows", signed(ev.row_points), "row_points"],
    ["Scoops", signed(ev.scoops), "scoops"],
    ["Opponents' fouls", signed(ev.opponent_fouls), "opponent_fouls"],
  ];
  if (ev.naturals) rows.push(["Naturals", signed(ev.naturals), "naturals"]);
  if (ev.sweeps) rows.push(["Sweeps", signed(ev.sweeps), "sweeps"]);
  rows.push(["Staying", signed(ev.stay_value), "stay_value"]);
  rows.push(["Total", `${num(ev.total)} \u00b1 ${num(ev.standard_error)}`, "total"]);
  const caption = `EV in points a hand: ${ev.opponents} opponent${ev.opponents === 1 ? "" : "s"},`
    + ` ${ev.exact ? "exact" : `${ev.samples} sampled deals`}`;
  return table(caption, rows, "ev");
}

/** At what worth of a repeat the stay decision would flip, in the words of the CLI's
 * solve. */
function flipWords(result) {
  const flip = result.break_even_fl_value;
  if (flip <= 0) {
    return "staying is right whatever a repeat is worth: the set that stays is worth "
      + `${points(-flip)} more even without it`;
  }
  const more = `worth more than ${points(flip)} points (here ${points(result.fl_value)})`;
  return result.stays ? `staying is right while a repeat is ${more}`
    : `staying would be right if a repeat were ${more}`;
}

function statusText(status) {
  return { optimal: "optimal (proved)", feasible: "feasible (time limit hit, not proved)",
    fouled: "every set fouls" }[status] ?? status;
}

/** A set of the other kind (the best that stays, or the best that does not), beside the
 * solution, with what it is worth against it. */
function otherKind(result) {
  const other = result.stays ? result.best_not_staying : result.best_staying;
  const title = result.stays ? "Best set that does not stay" : "Best set that stays";
  if (!other) {
    return el("div", { class: "other", data: { other: "none" } }, el("h4", {}, title),
      el("p", {}, result.stays ? "None: every legal set stays." : "None: no legal set stays."));
  }
  const difference = other.value - result.value;
  return el("div", { class: "other", data: { other: result.stays ? "not-staying" : "staying" } },
    el("h4", {}, title),
    board(other, { royalties: other.royalties, jokers: other.jokers, name: "other" }),
    el("p", {}, `value ${num(other.value)} (${signed(difference)} points), royalties `
      + `${other.royalties.total}, `, stays(other.stays)));
}

export function solveResult(result) {
  const head = el("p", { class: "summary" },
    el("strong", { data: { status: result.status } }, statusText(result.status)),
    ` \u00b7 ${result.variant}, ${result.objective} \u00b7 value ${num(result.value)} \u00b7 `,
    stays(result.stays),
    result.stay_rows.length ? ` (on ${result.stay_rows.join(", ")})` : "",
    ` \u00b7 solved in `, el("span", { data: { solveMs: result.solve_ms } },
      `${Math.round(result.solve_ms)} ms`));
  const main = el("div", { class: "solution" },
    el("h4", {}, "Optimal set"),
    board(result, { hands: result.hands, royalties: result.royalties, jokers: result.jokers,
      name: "solution" }),
    el("p", {}, `Royalties ${result.royalties.total}`, result.fantasyland_cards_next
      ? ` \u00b7 next Fantasyland: ${result.fantasyland_cards_next} cards` : ""),
    discards(result.discards));
  const notes = [];
  if (result.fouled) notes.push(el("p", { class: "warning" }, "Every set of these cards fouls."));
  if (!result.usual_count) {
    notes.push(el("p", { class: "note" }, `${result.variant} never deals ${result.cards.length}`
      + " cards in Fantasyland."));
  }
  const breakEven = result.break_even_fl_value === null ? null
    : el("p", { class: "decision", data: { breakEven: result.break_even_fl_value } },
      el("span", { class: "label" }, "Decision: "), flipWords(result));
  const parts = [head, ...notes, el("div", { class: "side-by-side" }, main, otherKind(result)),
    breakEven];
  if (result.ev) parts.push(evTable(result.ev));
  if (result.alternatives.length) {
    parts.push(el("h4", {}, "Alternatives"), el("ol", { class: "alternatives" },
      result.alternatives.map((alt, i) => el("li", { data: { alternative: i } },
        board(alt, { royalties: alt.royalties, jokers: alt.jokers, name: `alternative-${i}` }),
        el("p", {}, `value ${num(alt.value)} (${signed(alt.value - result.value)}), `
          + `royalties ${alt.royalties.total}, `, stays(alt.stays))))));
  }
  return el("div", { class: "answer" }, parts);
}

/** Where a graded set ranks among the legal sets, in the words of the CLI's check: rounded
 * down, so that a set some legal set beats never shows as 100.0%. */
export function percentileText(grade) {
  const p = grade.percentile;
  if (grade.optimal.status === "fouled") {
    return "none: every set of these cards fouls, so there is no legal set to rank";
  }
  if (grade.fouled) return "0% (a fouled set ranks below every legal set)";
  const shown = `${(Math.floor(p.percent * 10) / 10).toFixed(1)}%`;
  // Under ev each set drawn is valued against the optimum's opponents, as the CLI says.
  const drawn = grade.objective === "ev" ? "drawn at random and valued by EV" : "drawn at random";
  if (p.exact) {
    return `${shown}: beats or ties ${count(p.beaten_or_tied)} of the ${count(p.legal_sets)} `
      + "legal sets (exact)";
  }
  // Exactly 100, not an estimate: the optimum beats or ties every legal set, drawn or not.
  if (grade.is_optimal) return "100%: the optimal set beats or ties every legal set";
  if (p.beaten_or_tied === p.legal_sets) {
    const bound = (Math.floor((1 - 3 / p.legal_sets) * 1000) / 10).toFixed(1);
    return `above ${bound}% (an estimate): beats or ties all ${count(p.legal_sets)} legal `
      + `sets ${drawn}, but not the optimum`;
  }
  return `about ${shown} \u00b1 ${p.stderr.toFixed(1)}%: beats or ties `
    + `${count(p.beaten_or_tied)} of ${count(p.legal_sets)} legal sets ${drawn} (an estimate)`;
}

/** A graded set beside the optimum: what was lost, why, and where the set ranks. */
export function gradeResult(grade) {
  const opt = grade.optimal;
  const verdict = grade.is_optimal ? "Optimal" : grade.fouled ? "Fouled" : "Not optimal";
  const percentile = percentileText(grade);
  const summary = el("p", { class: "summary", data: { evLost: grade.ev_lost,
    optimal: String(grade.is_optimal), fouled: String(grade.fouled) } },
  el("strong", { class: grade.is_optimal ? "good" : "bad" }, verdict),
  " \u00b7 EV lost ", el("span", { class: "ev-lost" }, num(grade.ev_lost)),
  ` points (${grade.objective}) \u00b7 `, el("span", { class: "percentile" }, percentile));
  const yours = el("div", { class: "yours" }, el("h4", {}, "Your set"),
    board(grade.set, { hands: grade.hands, royalties: grade.royalties, jokers: grade.jokers,
      name: "yours" }),
    el("p", {}, `value ${num(grade.value)}, royalties ${grade.royalties.total}, `,
      stays(grade.stays)),
    discards(grade.discards, "yours"));
  const best = el("div", { class: "optimum" }, el("h4", {}, "Optimum"),
    board(opt, { royalties: opt.royalties, jokers: opt.jokers, name: "optimum" }),
    el("p", {}, `value ${num(opt.value)}, royalties ${opt.royalties.total}, `, stays(opt.stays),
      ` \u00b7 ${statusText(opt.status)}`),
    discards(opt.discards, "optimum"));
  const words = [...grade.foul_reasons, ...grade.advice];
  const advice = words.length ? el("ul", { class: "advice" },
    words.map((sentence) => el("li", {}, sentence[0].toUpperCase() + sentence.slice(1) + ".")))
    : null;
  return el("div", { class: "answer" }, summary, advice,
    el("div", { class: "side-by-side" }, yours, best));
}

function placement(play) {
  const rows = emptyRows();
  for (const [card, row] of Object.entries(play.rows)) rows[row].push(card);
  const used = rowNames().filter((row) => rows[row].length);
  return el("span", { class: "placement" }, used.map((row) =>
    el("span", { class: "place" }, `${row} `, cardsElement(rows[row], { small: true }))));
}

function boardText(text) {
  const rows = text.split("/").map((part) => part.trim().split(/\s+/u).filter(Boolean));
  return board(Object.fromEntries(rowNames().map((row, i) => [row, rows[i]])),
    { name: "play", finished: false });
}

function entryText(play, sizes) {
  if (play.entry_chances === null) return null;
  const chances = sizes.filter((size) => play.entry_chances[size] > 0)
    .map((size) => `${size} cards ${percent(play.entry_chances[size])}`);
  return `Fantasyland: ${chances.join(", ") || "none"}`;
}

function playItem(play, i, sizes) {
  // A play the first look screened out of the race has no value, only its screen score; a
  // play the learned model alone valued has the model's figure (under ev: a ranking only).
  const alone = play.source === "model";
  const figures = play.screened ? [`screened out (first look ${num(play.screen)})`]
    : alone ? [play.value === null ? `model ${num(play.model)} (royalty points: a ranking)`
      : `value ${num(play.value)} (model)`]
      : [`value ${num(play.value)} \u00b1 ${num(play.standard_error)}`,
        `foul ${percent(play.foul_chance)}`, entryText(play, sizes)];
  return el("li", { class: play.screened || alone ? "play screened" : "play",
    data: { play: i, board: play.board, close: String(play.close) } },
  el("div", { class: "play-moves" }, placement(play),
    play.discard ? el("span", { class: "place" }, "discard ",
      cardsElement([play.discard], { small: true })) : null),
  el("div", { class: "play-figures" }, figures.filter(Boolean).join(" \u00b7 "),
    play.close ? el("span", { class: "close", title: "within the error of the best play" },
      " \u00b7 \u2248 close") : null));
}

/** The plays of an ordinary street, best first; those the first look screened out, or the
 * learned model alone valued, last, folded away. */
export function adviseResult(result) {
  const sizes = result.entry_values.map((entry) => entry.cards);
  const head = el("p", { class: "summary" }, `${result.variant}, ${result.objective}, street `
    + `${result.position.street} (${result.position.rounds_left} rounds left) \u00b7 `
    + `${result.plays.length} plays \u00b7 ${result.rollouts} rollouts`
    + (result.exact ? " \u00b7 exact" : "") + (result.settled ? " \u00b7 settled" : ""));
  const raced = result.plays.filter((play) => !play.screened && play.source !== "model");
  const screened = result.plays.filter((play) => play.screened || play.source === "model");
  const best = result.plays[0];
  const parts = [head];
  if (best) {
    parts.push(el("div", { class: "best-play" }, el("h4", {}, "Best play: the board after it"),
      boardText(best.board)));
  }
  parts.push(el("h4", {}, "Plays, best first (\u2248 close: within the error of the best)"),
    el("ol", { class: "plays" }, raced.map((play, i) => playItem(play, i, sizes))));
  if (screened.length) {
    parts.push(el("details", { class: "screened-plays" },
      el("summary", {}, result.rollout_bot === "learned"
        ? `${screened.length} plays valued by the learned model alone`
        : `${screened.length} plays screened out by the first look`),
      el("ol", { class: "plays", start: raced.length + 1 },
        screened.map((play, i) => playItem(play, raced.length + i, sizes)))));
  }
  return el("div", { class: "answer" }, parts);
}
