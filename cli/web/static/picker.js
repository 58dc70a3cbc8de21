// The deck grid: 52 cards in four rows by suit (plus the jokers a deck holds), each card a
// button that puts the card into the active zone (the dealt cards, a row of a board, ...)
// or takes it out again. Every zone has a text field; the field and the grid stay in sync:
// a click rewrites the field, typing re-marks the grid, and what was typed is kept.

import { JOKER, RANKS, SUITS, cardElement, cardName, parseCards } from "./cards.js";

export class DeckPicker {
  /** `zones`: [{id, label, short, input, radio?}]: input is the zone's text field; with
   * several zones, each zone's radio button (or a chooser built here) makes it the active
   * one, where a clicked card goes. */
  constructor(container, zones, { onChange = () => {} } = {}) {
    this.container = container;
    this.zones = zones;
    this.onChange = onChange;
    this.active = zones[0].id;
    this.copies = 1;
    this.jokers = 0;
    this.cards = Object.fromEntries(zones.map((zone) => [zone.id, []]));
    this.buttons = new Map();
    for (const zone of zones) {
      zone.input.addEventListener("input", () => this.readZone(zone));
    }
    this.build();
  }

  build() {
    this.container.replaceChildren();
    this.container.classList.add("picker");
    if (this.zones.length > 1 && !this.zones[0].radio) this.container.append(this.zoneChooser());
    for (const zone of this.zones) {
      zone.radio?.addEventListener("change", () => {
        if (zone.radio.checked) this.active = zone.id;
      });
    }
    const grid = document.createElement("div");
    grid.className = "deck-grid";
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", "Deck");
    for (const suit of SUITS) {
      for (const rank of RANKS) grid.append(this.cardButton(rank + suit));
    }
    this.jokerRow = document.createElement("div");
    this.jokerRow.className = "joker-row";
    this.jokerRow.append(this.cardButton(JOKER));
    this.count = document.createElement("p");
    this.count.className = "pick-count";
    this.count.setAttribute("aria-live", "polite");
    this.container.append(grid, this.jokerRow, this.count);
    this.refresh();
  }

  zoneChooser() {
    const chooser = document.createElement("fieldset");
    chooser.className = "zone-chooser";
    const legend = document.createElement("legend");
    legend.textContent = "A card clicked goes to";
    chooser.append(legend);
    const name = `${this.container.id}-zone`;
    for (const zone of this.zones) {
      const label = document.createElement("label");
      const radio = document.createElement("input");
      radio.type = "radio";
      radio.name = name;
      radio.value = zone.id;
      radio.checked = zone.id === this.active;
      radio.addEventListener("change", () => { this.active = zone.id; });
      label.append(radio, ` ${zone.label}`);
      chooser.append(label);
    }
    return chooser;
  }

  cardButton(card) {
    const button = cardElement(card, { button: true });
    button.classList.add("pick");
    const badge = document.createElement("span");
    badge.className = "badge";
    button.append(badge);
    button.addEventListener("click", () => this.toggle(card));
    this.buttons.set(card, button);
    return button;
  }

  /** The deck of the chosen variant: two copies of each card under two decks, jokers. */
  setDeck({ copies = 1, jokers = 0 }) {
    this.copies = copies;
    this.jokers = jokers;
    this.refresh();
  }

  limit(card) {
    return card === JOKER ? this.jokers : this.copies;
  }

  /** Where each copy of a card sits: a list of zone ids. */
  places(card) {
    const places = [];
    for (const zone of this.zones) {
      for (const held of this.cards[zone.id]) if (held === card) places.push(zone.id);
    }
    return places;
  }

  toggle(card) {
    const held = this.places(card).length;
    if (held < this.limit(card)) {
      this.cards[this.active].push(card);
      this.writeZone(this.active);
    } else {
      for (const zone of this.zones) {
        if (!this.cards[zone.id].includes(card)) continue;
        this.cards[zone.id] = this.cards[zone.id].filter((other) => other !== card);
        this.writeZone(zone.id);
      }
    }
    this.refresh();
    this.onChange();
  }

  writeZone(id) {
    this.zones.find((zone) => zone.id === id).input.value = this.cards[id].join(" ");
  }

  readZone(zone) {
    this.cards[zone.id] = parseCards(zone.input.value).cards;
    this.refresh();
    this.onChange();
  }

  /** Put cards into zones from outside (a deal, a cleared form): {zone id: [cards]}. */
  set(cardsByZone) {
    for (const [id, cards] of Object.entries(cardsByZone)) {
      this.cards[id] = [...cards];
      this.writeZone(id);
    }
    this.refresh();
    this.onChange();
  }

  clear() {
    this.set(Object.fromEntries(this.zones.map((zone) => [zone.id, []])));
  }

  refresh() {
    const short = Object.fromEntries(this.zones.map((zone) => [zone.id, zone.short]));
    const label = Object.fromEntries(this.zones.map((zone) => [zone.id, zone.label]));
    for (const [card, button] of this.buttons) {
      const places = this.places(card);
      const badge = button.querySelector(".badge");
      button.setAttribute("aria-pressed", String(places.length > 0));
      button.classList.toggle("over", places.length > this.limit(card));
      if (this.zones.length > 1) badge.textContent = places.map((id) => short[id]).join("");
      else badge.textContent = places.length > 1 ? `\u00d7${places.length}` : "";
      const where = this.zones.length > 1 ? places.map((id) => label[id]) : [];
      const times = this.zones.length === 1 && places.length > 1 ? [`${places.length} times`] : [];
      button.setAttribute("aria-label", [cardName(card), ...where, ...times].join(", "));
      button.hidden = card === JOKER && this.jokers === 0;
    }
    this.jokerRow.hidden = this.jokers === 0;
    const counts = this.zones.map((zone) => `${zone.label}: ${this.cards[zone.id].length}`);
    this.count.textContent = this.zones.length > 1 ? counts.join(" \u00b7 ")
      : `${this.cards[this.zones[0].id].length} cards picked`;
  }
}
