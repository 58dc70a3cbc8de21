// The row editor: dealt cards start in the hand and are moved into the rows of a set (top,
// middle and bottom, each as many cards as the server's layout says). By tap: tap a hand
// card, then a row; tap a placed card to send it back. By drag: drag a card onto a row or
// back onto the hand (pointer events, so mouse, pen and touch alike). By keyboard: Enter or
// Space on a card selects it, on a row's button places it; a row's initial (T, M or B) or
// its number (1, 2 or 3) places the selected card straight away. Cards left in the hand are
// discards. For a street of an ordinary hand, the rows may already hold the board's cards
// (`fixed`: shown, not moved), and `keep` says how many of the hand's cards the street places.

import { cardElement, cardName, formatRows } from "./cards.js";
import { emptyRows, rowLabel, rowNames, rowSize } from "./layout.js";

/** The row a key places a card in: its initial or its number, top first. */
function keyRow(key) {
  const names = rowNames();
  return names.find((name) => name[0] === key) ?? names[Number(key) - 1];
}
const DRAG_START = 6;  // pixels a pointer moves before a press becomes a drag

export class RowEditor {
  constructor(container, { onChange = () => {}, label = "Hand" } = {}) {
    this.container = container;
    this.onChange = onChange;
    this.items = [];  // [{id, card, place}], place: "hand" or a row
    this.fixed = emptyRows();  // the board's cards already in each row
    this.keep = null;  // cards of the hand to place (null: every row full)
    this.selected = null;
    this.locked = false;
    this.drag = null;
    this.suppressClick = false;
    this.build(label);
  }

  build(label) {
    this.container.classList.add("editor");
    this.container.replaceChildren();
    this.zones = {};
    for (const row of rowNames()) {
      const zone = document.createElement("div");
      zone.className = "editor-row";
      zone.dataset.zone = row;
      const target = document.createElement("button");
      target.type = "button";
      target.className = "row-target";
      target.dataset.row = row;
      target.addEventListener("click", () => this.placeSelected(row));
      const slots = document.createElement("div");
      slots.className = "slots";
      zone.addEventListener("click", (event) => {
        if (event.target === zone || event.target === slots
            || event.target.classList.contains("slot")) this.placeSelected(row);
      });
      zone.append(target, slots);
      this.zones[row] = { zone, target, slots };
    }
    const hand = document.createElement("div");
    hand.className = "editor-hand";
    hand.dataset.zone = "hand";
    const heading = document.createElement("p");
    heading.className = "hand-label";
    heading.textContent = label;
    const slots = document.createElement("div");
    slots.className = "slots";
    hand.append(heading, slots);
    this.zones.hand = { zone: hand, slots };
    const rows = document.createElement("div");
    rows.className = "editor-rows";
    rows.append(...rowNames().map((row) => this.zones[row].zone));
    this.container.append(rows, hand);
    this.container.addEventListener("keydown", (event) => this.onKey(event));
    this.render();
  }

  /** Deal new cards into the hand; `stay` leaves cards still dealt where they were. A
   * street's `fixed` rows hold the board so far, and it places `keep` of the cards. */
  setCards(cards, { stay = false, fixed = null, keep = null } = {}) {
    const old = stay ? this.items : [];
    this.fixed = fixed ?? emptyRows();
    this.keep = keep;
    const next = cards.map((card, id) => ({ id, card, place: "hand" }));
    const used = new Set();
    for (const item of next) {
      const before = old.find((o) => o.card === item.card && !used.has(o));
      if (before) {
        used.add(before);
        item.place = before.place;
      }
    }
    this.items = next;
    this.selected = null;
    this.trimRows();
    this.render();
  }

  /** Place the cards of rows {top, middle, bottom}, those dealt; the rest go to the hand. */
  setRows(rows) {
    for (const item of this.items) item.place = "hand";
    for (const row of rowNames()) {
      for (const card of rows[row] ?? []) {
        const item = this.items.find((i) => i.card === card && i.place === "hand");
        if (item) item.place = row;
      }
    }
    this.selected = null;
    this.trimRows();
    this.render();
  }

  trimRows() {
    for (const row of rowNames()) {
      this.items.filter((i) => i.place === row).slice(rowSize(row) - this.fixed[row].length)
        .forEach((i) => { i.place = "hand"; });
    }
  }

  rows() {
    const rows = emptyRows();
    for (const item of this.items) if (item.place !== "hand") rows[item.place].push(item.card);
    return rows;
  }

  hand() {
    return this.items.filter((i) => i.place === "hand").map((i) => i.card);
  }

  full() {
    if (this.keep !== null) {
      return this.items.length > 0
        && this.items.filter((i) => i.place !== "hand").length === this.keep;
    }
    const rows = this.rows();
    return this.items.length > 0
      && rowNames().every((row) => rows[row].length === rowSize(row));
  }

  /** The set as "TOP / MIDDLE / BOTTOM"; "" while nothing is placed. */
  text() {
    const rows = this.rows();
    return Object.values(rows).some((cards) => cards.length) ? formatRows(rows) : "";
  }

  lock(locked) {
    this.locked = locked;
    this.selected = null;
    this.render();
  }

  sendHome() {
    for (const item of this.items) item.place = "hand";
    this.selected = null;
    this.changed();
  }

  room(row) {
    return rowSize(row) - this.fixed[row].length
      - this.items.filter((i) => i.place === row).length;
  }

  move(item, place) {
    if (this.locked || !item || item.place === place) return false;
    if (place !== "hand" && this.room(place) <= 0) return false;
    if (place !== "hand" && item.place === "hand" && this.keep !== null
        && this.items.filter((i) => i.place !== "hand").length >= this.keep) return false;
    item.place = place;
    return true;
  }

  placeSelected(row) {
    const item = this.items.find((i) => i.id === this.selected);
    if (!item) {
      this.announce(`Pick a card first, then the ${row} row`);
      return;
    }
    if (!this.move(item, row)) {
      this.announce(this.room(row) <= 0 ? `The ${row} row is full`
        : `This street places ${this.keep} cards: send one back to place another`);
      return;
    }
    this.selected = null;
    const next = this.items.find((i) => i.place === "hand" && i.id > item.id)
      ?? this.items.find((i) => i.place === "hand");
    this.changed(next ? { card: next.id } : { row });
  }

  onCardClick(item) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    if (this.locked) return;
    if (item.place === "hand") {
      this.selected = this.selected === item.id ? null : item.id;
      this.render({ card: item.id });
    } else {
      this.move(item, "hand");
      this.selected = null;
      this.changed({ card: item.id });
    }
  }

  onKey(event) {
    const row = keyRow(event.key.toLowerCase());
    if (!row || event.ctrlKey || event.metaKey || event.altKey || this.locked) return;
    const focused = this.items.find((i) => i.id === Number(document.activeElement?.dataset.item));
    if (this.selected === null && focused?.place === "hand") this.selected = focused.id;
    if (this.selected === null) return;
    event.preventDefault();
    this.placeSelected(row);
  }

  // Dragging: a press that moves past DRAG_START pixels carries a copy of the card under
  // the pointer; letting go over a row or the hand moves the card there.
  onPointerDown(event, item, button) {
    if (this.locked || event.button !== 0) return;
    this.drag = { item, button, x: event.clientX, y: event.clientY, ghost: null };
    button.setPointerCapture(event.pointerId);
  }

  onPointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START) return;
      drag.ghost = drag.button.cloneNode(true);
      drag.ghost.classList.add("ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.append(drag.ghost);
      drag.button.classList.add("dragging");
    }
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    const over = this.zoneAt(event.clientX, event.clientY);
    for (const [place, { zone }] of Object.entries(this.zones)) {
      zone.classList.toggle("drop-over", place === over);
    }
  }

  onPointerUp(event) {
    const drag = this.drag;
    this.drag = null;
    if (!drag?.ghost) return;
    drag.ghost.remove();
    drag.button.classList.remove("dragging");
    for (const { zone } of Object.values(this.zones)) zone.classList.remove("drop-over");
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const place = event.type === "pointerup" ? this.zoneAt(event.clientX, event.clientY) : null;
    if (place && this.move(drag.item, place)) {
      this.selected = null;
      this.changed({ card: drag.item.id });
    }
  }

  zoneAt(x, y) {
    const element = document.elementFromPoint(x, y);
    const zone = element?.closest("[data-zone]");
    return zone && this.container.contains(zone) ? zone.dataset.zone : null;
  }

  announce(message) {
    this.container.querySelector(".editor-note").textContent = message;
  }

  changed(focus) {
    this.render(focus);
    this.onChange();
  }

  cardButton(item) {
    const button = cardElement(item.card, { button: true });
    button.dataset.item = String(item.id);
    button.dataset.place = item.place;
    const where = item.place === "hand" ? "in hand" : `in the ${item.place} row`;
    button.setAttribute("aria-label", `${cardName(item.card)}, ${where}`);
    if (item.place === "hand") {
      button.setAttribute("aria-pressed", String(item.id === this.selected));
    }
    button.disabled = this.locked;
    button.addEventListener("click", () => this.onCardClick(item));
    button.addEventListener("pointerdown", (event) => this.onPointerDown(event, item, button));
    button.addEventListener("pointermove", (event) => this.onPointerMove(event));
    button.addEventListener("pointerup", (event) => this.onPointerUp(event));
    button.addEventListener("pointercancel", (event) => this.onPointerUp(event));
    return button;
  }

  render(focus = null) {
    const selected = this.items.find((i) => i.id === this.selected);
    for (const [place, { slots, target }] of Object.entries(this.zones)) {
      const items = this.items.filter((i) => i.place === place);
      const fixed = place === "hand" ? [] : this.fixed[place];
      const buttons = [...fixed.map((card) => {
        const shown = cardElement(card);
        shown.classList.add("fixed");
        return shown;
      }), ...items.map((item) => this.cardButton(item))];
      if (place !== "hand") {
        const size = rowSize(place);
        for (let i = fixed.length + items.length; i < size; i++) {
          const slot = document.createElement("span");
          slot.className = "slot";
          buttons.push(slot);
        }
        const held = fixed.length + items.length;
        target.textContent = `${rowLabel(place)} ${held}/${size}`;
        const action = selected ? `, place ${cardName(selected.card)} here` : "";
        target.setAttribute("aria-label",
          `${rowLabel(place)} row, ${held} of ${size} cards${action}`);
        target.disabled = this.locked;
      }
      slots.replaceChildren(...buttons);
    }
    this.zones.hand.zone.classList.toggle("empty", this.hand().length === 0);
    this.container.classList.toggle("choosing", Boolean(selected));
    let note = this.container.querySelector(".editor-note");
    if (!note) {
      note = document.createElement("p");
      note.className = "editor-note";
      note.setAttribute("aria-live", "polite");
      this.container.append(note);
    }
    const keys = rowNames().map((row) => row[0].toUpperCase()).join(", ");
    note.textContent = selected ? `${cardName(selected.card)} picked: now a row (or ${keys})` : "";
    if (focus?.card !== undefined) {
      this.container.querySelector(`[data-item="${focus.card}"]`)?.focus();
    } else if (focus?.row) {
      this.zones[focus.row].target.focus();
    }
  }
}
