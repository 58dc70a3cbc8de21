// The training history: the last hands graded (newest first), their trend, and a chart of
// the mean EV lost per session drawn as inline SVG.

import { cardText, isJoker, isRed } from "./cards.js";
import { el, num } from "./render.js";

const SVG = "http://www.w3.org/2000/svg";
const TREND_HANDS = 10;  // the trend compares the mean of the last ten hands with the ten before

/** An SVG element of the charts, with its attributes and text. */
export function svg(tag, attributes = {}, text = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== null) element.textContent = text;
  return element;
}

function mean(values) {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit",
    minute: "2-digit" });
}

/** The trend in words: is the mean EV lost of the latest hands lower than before? */
export function trend(hands) {
  if (hands.length === 0) return "No hands graded yet.";
  const latest = hands.slice(0, TREND_HANDS).map((hand) => hand.ev_lost);
  const before = hands.slice(TREND_HANDS, 2 * TREND_HANDS).map((hand) => hand.ev_lost);
  const optimal = hands.filter((hand) => hand.optimal).length;
  const share = `${optimal} of ${hands.length} hands optimal; mean EV lost `
    + `${num(mean(hands.map((hand) => hand.ev_lost)))}.`;
  if (before.length === 0) return share;
  const now = mean(latest);
  const then = mean(before);
  const way = now < then - 1e-9 ? "better" : now > then + 1e-9 ? "worse" : "level";
  return `${share} Last ${latest.length} hands: ${num(now)} lost a hand against ${num(then)} `
    + `in the ${before.length} before (${way}).`;
}

function cardsText(cards) {
  return cards.flatMap((card, i) => [i ? " " : null, el("span", { class: isJoker(card)
    ? "joker" : isRed(card) ? "red" : "black" }, cardText(card))]);
}

export function historyTable(hands) {
  const caption = hands.length === 1 ? "The last hand"
    : `The last ${hands.length} hands, newest first`;
  return el("table", { class: "history", id: "train-history-table" },
    el("caption", {}, caption),
    el("thead", {}, el("tr", {}, ["Date", "Cards", "EV lost", "Optimal"].map((h) =>
      el("th", { scope: "col" }, h)))),
    el("tbody", {}, hands.map((hand) => el("tr", { data: { hand: hand.id } },
      el("td", {}, when(hand.played_at)),
      el("td", { class: "card-text" }, cardsText(hand.cards)),
      el("td", { class: "num" }, num(hand.ev_lost)),
      el("td", {}, hand.optimal ? "yes" : hand.fouled ? "no (fouled)" : "no")))));
}

/** Mean EV lost per session, oldest first, as points joined by a line. */
export function sessionChart(sessions) {
  const width = 600;
  const height = 220;
  const pad = { left: 44, right: 12, top: 14, bottom: 30 };
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-labelledby": "train-chart-title" });
  chart.append(svg("title", { id: "train-chart-title" },
    `Mean EV lost per session, ${sessions.length} sessions`));
  if (sessions.length === 0) return chart;
  const values = sessions.map((session) => session.mean_ev_lost);
  const top = Math.max(1, ...values) * 1.1;
  const x = (i) => pad.left + (sessions.length === 1 ? (width - pad.left - pad.right) / 2
    : (i * (width - pad.left - pad.right)) / (sessions.length - 1));
  const y = (value) => pad.top + (1 - value / top) * (height - pad.top - pad.bottom);
  for (let step = 0; step <= 4; step++) {
    const value = (top * step) / 4;
    chart.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value),
      class: "grid-line" }));
    chart.append(svg("text", { x: pad.left - 6, y: y(value) + 4, class: "tick",
      "text-anchor": "end" }, value.toFixed(1)));
  }
  const points = values.map((value, i) => `${x(i)},${y(value)}`).join(" ");
  chart.append(svg("polyline", { points, class: "series" }));
  sessions.forEach((session, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(session.mean_ev_lost), r: 4, class: "dot" });
    dot.append(svg("title", {}, `${when(session.started)}: ${session.hands} hands, mean EV `
      + `lost ${num(session.mean_ev_lost)}, ${session.optimal} optimal, ${session.fouls} fouls`));
    chart.append(dot);
  });
  chart.append(svg("text", { x: pad.left, y: height - 8, class: "tick" }, "oldest session"));
  chart.append(svg("text", { x: width - pad.right, y: height - 8, class: "tick",
    "text-anchor": "end" }, "newest"));
  return chart;
}
