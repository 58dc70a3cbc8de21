// Cards as the API spells them ("As", "Th", "Jk"), read from text as the CLI reads them,
// and drawn as small playing cards.

import { rowNames, rowSize, setSize } from "./layout.js";

export const RANKS = "AKQJT98765432";  // the deck grid's order, highest first
export const SUITS = "shdc";  // spades, hearts, diamonds, clubs: one grid row each
export const JOKER = "Jk";

const SUIT_SYMBOL = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };
const SUIT_NAME = { s: "spades", h: "hearts", d: "diamonds", c: "clubs" };
const RANK_NAME = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10",
  9: "9", 8: "8", 7: "7", 6: "6", 5: "5", 4: "4", 3: "3", 2: "2",
};
// Suit characters the CLI also reads: the symbols, filled and hollow.
const SUIT_OF_CHAR = {
  s: "s", h: "h", d: "d", c: "c",
  "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c",
  "\u2664": "s", "\u2661": "h", "\u2662": "d", "\u2667": "c",
};
const SUIT_CHARS = Object.keys(SUIT_OF_CHAR).join("");
// A joker ("joker" before "jk", both before a jack), or a rank and a suit; sticky, so that
// run-together cards ("AsKd") are read one after the other.
const TOKEN = new RegExp(`(joker|jk|\u{1F0CF})|(10|[2-9tjqka])([${SUIT_CHARS}])`, "iuy");
// Emoji presentation selectors that phones append to suit symbols ("A♠️") mean nothing.
const SELECTORS = /[\uFE0E\uFE0F]/gu;

export function isJoker(card) {
  return card === JOKER;
}

export function isRed(card) {
  return card[1] === "h" || card[1] === "d";
}

/** "Ace of spades", "10 of hearts", "Joker": the name a card button is read by. */
export function cardName(card) {
  if (isJoker(card)) return "Joker";
  return `${RANK_NAME[card[0]]} of ${SUIT_NAME[card[1]]}`;
}

/** "A♠", "10♥", "Joker": a card in running text. */
export function cardText(card) {
  if (isJoker(card)) return "Joker";
  return `${card[0] === "T" ? "10" : card[0]}${SUIT_SYMBOL[card[1]]}`;
}

/** "T♦", "A♣", "🃏": a card as the CLI prints it in running text (its rank as typed). */
export function printedCard(card) {
  if (isJoker(card)) return "\u{1F0CF}";
  return `${card[0]}${SUIT_SYMBOL[card[1]]}`;
}

/** Read cards typed or pasted ("As Kd", "AsKd", "10h", "k♥"): the cards found, and the
 * words that are not cards (left for the server to name in its error). */
export function parseCards(text) {
  const cards = [];
  const bad = [];
  for (const word of text.replace(SELECTORS, "").split(/[\s,;]+/u)) {
    if (!word) continue;
    let position = 0;
    const found = [];
    while (position < word.length) {
      TOKEN.lastIndex = position;
      const match = TOKEN.exec(word);
      if (!match) break;
      found.push(match[1] ? JOKER : match[2].toUpperCase().replace("10", "T")
        + SUIT_OF_CHAR[match[3].toLowerCase()]);
      position = TOKEN.lastIndex;
    }
    if (position < word.length) bad.push(word);
    else cards.push(...found);
  }
  return { cards, bad };
}

/** Split "TOP / MIDDLE / BOTTOM" (or "|" between the rows) into its rows of cards, or a
 * whole set typed with no separator in the rows' sizes, as the server's parse_board splits
 * it; null when it reads as neither. */
export function parseRows(text) {
  const names = rowNames();
  const parts = text.split(/[/|]/u);
  let rows;
  if (parts.length === 1) {
    const { cards, bad } = parseCards(text);
    if (bad.length || cards.length !== setSize()) return null;
    let start = 0;
    rows = names.map((name) => cards.slice(start, start += rowSize(name)));
  } else {
    if (parts.length !== names.length) return null;
    const read = parts.map((part) => parseCards(part));
    if (read.some(({ bad }) => bad.length)) return null;
    rows = read.map(({ cards }) => cards);
  }
  return Object.fromEntries(names.map((name, i) => [name, rows[i]]));
}

export function formatRows(rows) {
  return rowNames().map((row) => rows[row].join(" ")).join(" / ");
}

/** A card drawn as a face: a <span>, or a <button> when `button` is set. `face` is the card
 * a joker stands for, shown under it. */
export function cardElement(card, { button = false, face = null, small = false } = {}) {
  const element = document.createElement(button ? "button" : "span");
  if (button) element.type = "button";
  element.className = "card";
  if (small) element.classList.add("small");
  element.dataset.card = card;
  if (isJoker(card)) {
    element.classList.add("joker");
    // "Jkr" and a star, not "J" (a jack) nor the joker character, which fonts may lack.
    element.innerHTML = '<span class="rank">Jkr</span><span class="suit">\u2605</span>';
    if (face) {
      const stands = document.createElement("span");
      stands.className = "stands";
      stands.textContent = cardText(face);
      element.append(stands);
    }
  } else {
    element.classList.add(isRed(card) ? "red" : "black");
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = card[0] === "T" ? "10" : card[0];
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUIT_SYMBOL[card[1]];
    element.append(rank, suit);
  }
  const name = cardName(card) + (face ? `, standing for ${cardName(face)}` : "");
  if (button) element.setAttribute("aria-label", name);
  else {
    element.setAttribute("role", "img");
    element.setAttribute("aria-label", name);
  }
  return element;
}

/** A row of drawn cards; `faces` are the faces of the row's jokers, in order. */
export function cardsElement(cards, { faces = [], small = false } = {}) {
  const list = document.createElement("span");
  list.className = "cards";
  let joker = 0;
  for (const card of cards) {
    const face = isJoker(card) ? faces[joker++] ?? null : null;
    list.append(cardElement(card, { face, small }));
  }
  return list;
}

/** Cards in running text ("Kd Qs / 7c"), each shown as "K♦" in its suit's colour and kept
 * whole on one line; "/" and any word that is not a card are kept as they are. */
export function cardLine(text) {
  const nodes = [];
  for (const word of text.split(/\s+/u).filter(Boolean)) {
    if (nodes.length) nodes.push(" ");
    const { cards, bad } = parseCards(word);
    const span = document.createElement("span");
    if (cards.length === 1 && !bad.length) {
      span.className = `card-word ${isJoker(cards[0]) ? "joker" : isRed(cards[0]) ? "red"
        : "black"}`;
      span.textContent = cardText(cards[0]);
    } else {
      span.className = "card-word";
      span.textContent = word;
    }
    nodes.push(span);
  }
  return nodes;
}
