// The settings of a view (variant, objective, opponents, ...) built as labelled fields, and
// read back as the fields of a request: a field left empty is left out, so the server's
// default holds. Each field's kind, bounds, choices and default are the server's
// (/api/fields, given to setFields before a view is built); the page adds the words.

import { postJson } from "./api.js";
import { el } from "./render.js";

const RULES_PAUSE = 600;  // ms of no typing before house rules are read by the server

// A field's label; `unset`: its hint where the server names no figure of its own (the
// variant's, or none); `choices`: the words for a choice's values.
const FIELDS = {
  objective: { label: "Objective", choices: { ev: "ev (points won)" } },
  opponents: { label: "Opponents", unset: "default" },
  fl_value: { label: "Worth of staying (fl_value)", unset: "the variant's" },
  seed: { label: "Seed", unset: "random" },
  samples: { label: "Samples" },
  alternatives: { label: "Alternatives" },
  budget: { label: "Rollout budget" },
  time_limit: { label: "Time limit (s)" },
  sizes: { label: "Hand sizes dealt (e.g. 14 15)", unset: "the variant's mix" },
  opponent_fantasyland: { label: "Opponents in Fantasyland (cards, e.g. 14 15)" },
  against: { label: "Opponents' boards seen, one a line (TOP / MIDDLE / BOTTOM)" },
  dead: { label: "Dead cards (seen elsewhere)", unset: "e.g. 2c 7d" },
  fantasyland: { label: "Start in Fantasyland (cards)", unset: "no" },
  duplicate: { label: "Duplicate deals (each deal once a seat)" },
};

let served = {};

/** The server's fields (/api/fields): each endpoint's, by its path. */
export function setFields(fields) {
  served = fields;
}

/** How a field is shown and read, from its JSON Schema: a select, a check box, a whole
 * number, a number, whole numbers, lines (a list of strings) or text. */
function kindOf(schema) {
  if (schema.enum) return "select";
  if (schema.type === "boolean") return "check";
  if (schema.type === "integer") return "int";
  if (schema.type === "number") return "number";
  if (schema.type === "array") return schema.items.type === "integer" ? "ints" : "lines";
  return "text";
}

/** The server's default as a hint ("0", "96", "14 15"), or null where it names none. */
function shown(value) {
  if (value === null || value === undefined || value === "") return null;
  if (Array.isArray(value)) return value.length ? value.join(" ") : null;
  return String(value);
}

export class Settings {
  /** `main`: fields shown at once; `table`: fields under "At the table"; the variant is
   * always there, and the house rules unless `houseRules` is false. `ordinary` keeps only
   * variants with ordinary streets. */
  constructor(container, prefix, { main = [], table = [], ordinary = false, onVariant,
    alert = null, endpoints = [prefix], houseRules = true }) {
    this.prefix = prefix;
    this.endpoints = endpoints;
    this.schemas = {};
    this.alert = alert;
    this.rulesTimer = null;
    this.ordinary = ordinary;
    this.onVariant = onVariant ?? (() => {});
    this.inputs = {};
    this.variants = [];
    this.variant = el("select", { id: `${prefix}-variant`, name: "variant" });
    this.variant.addEventListener("change", () => this.variantChanged());
    const grid = el("div", { class: "settings-grid" },
      el("label", { for: this.variant.id }, "Variant", this.variant),
      main.map((name) => this.field(name)));
    this.description = el("p", { class: "variant-description", id: `${prefix}-variant-info` });
    this.rules = el("textarea", { id: `${prefix}-rules`, name: "rules", rows: 8,
      spellcheck: "false", placeholder: 'name = "house"\nbase = "pineapple"\n...' });
    this.rules.addEventListener("input", () => {
      this.variantChanged();
      clearTimeout(this.rulesTimer);
      this.rulesTimer = setTimeout(() => this.readRules(), RULES_PAUSE);
    });
    const rules = el("details", { class: "rules" },
      el("summary", {}, "House rules (a rules file, TOML)"),
      el("label", { for: this.rules.id }, "Rules file text: replaces the variant"), this.rules);
    const parts = [grid, this.description];
    if (table.length) {
      parts.push(el("details", { class: "table" }, el("summary", {}, "At the table"),
        el("div", { class: "settings-grid" }, table.map((name) => this.field(name)))));
    }
    if (houseRules) parts.push(rules);
    container.append(...parts);
  }

  /** A field's input, as the first of the view's endpoints that takes it serves it. */
  field(name) {
    const spec = FIELDS[name];
    const schema = this.endpoints.map((path) => served[path]?.[name]).find(Boolean);
    if (!schema) throw new Error(`no endpoint of ${this.prefix} takes ${name}`);
    this.schemas[name] = schema;
    const kind = kindOf(schema);
    const id = `${this.prefix}-${name.replace("_", "-")}`;
    let input;
    if (kind === "select") {
      const choices = [["", "the default"],
        ...schema.enum.map((value) => [value, spec.choices?.[value] ?? value])];
      input = el("select", { id, name }, choices.map(([value, text]) =>
        el("option", { value }, text)));
    } else if (kind === "lines") {
      input = el("textarea", { id, name, rows: 2, spellcheck: "false" });
    } else if (kind === "check") {
      input = el("input", { id, name, type: "checkbox", checked: schema.default === true });
      this.inputs[name] = input;
      return el("label", { for: id, class: "check" }, input, spec.label);
    } else {
      const numeric = kind === "int" || kind === "number";
      input = el("input", { id, name, type: numeric ? "number" : "text",
        min: schema.minimum ?? schema.exclusiveMinimum, max: schema.maximum,
        step: kind === "int" ? 1 : numeric ? "any" : null,
        inputmode: numeric ? "decimal" : null,
        placeholder: shown(schema.default) ?? spec.unset ?? null,
        autocomplete: "off", spellcheck: "false" });
    }
    this.inputs[name] = input;
    return el("label", { for: id, class: kind === "lines" ? "wide" : null }, spec.label,
      input);
  }

  /** The variants to offer, the one chosen at first, and the objective a request that
   * names none is played by (the server's default, from its config: /api/variants). */
  setVariants(list, fallback, objective) {
    this.objective = objective;
    this.variants = list.filter((variant) => !this.ordinary || variant.ordinary);
    const chosen = this.variants.some((v) => v.name === fallback) ? fallback
      : this.variants[0]?.name;
    this.variant.replaceChildren(...this.variants.map((variant) =>
      el("option", { value: variant.name, selected: variant.name === chosen }, variant.name)));
    this.variantChanged();
  }

  /** Let the server read the house rules as typed: their name and what they deal, or the
   * line that says what is wrong, before any request depends on them. */
  async readRules() {
    const text = this.rules.value;
    if (!text.trim()) return;
    try {
      const rules = await postJson("/api/rules", { rules: text });
      if (this.rules.value !== text) return;
      const sizes = rules.dealt_counts.join(", ");
      this.description.textContent = `House rules "${rules.name}" replace the variant`
        + `${rules.description ? `: ${rules.description}` : ""} (Fantasyland: ${sizes} cards;`
        + ` up to ${rules.seats} players.)`;
      if (this.alert?.textContent.startsWith("house rules: ")) this.alert.textContent = "";
    } catch (error) {
      if (this.rules.value === text && this.alert) {
        this.alert.textContent = `house rules: ${error.message}`;
      }
    }
  }

  current() {
    return this.variants.find((variant) => variant.name === this.variant.value) ?? null;
  }

  variantChanged() {
    const variant = this.current();
    const ruled = this.rules.value.trim() !== "";
    this.variant.disabled = ruled;
    if (variant) {
      const sizes = variant.fantasyland_sizes.join(", ");
      const deck = [variant.copies > 1 ? `${variant.copies} decks` : "one deck",
        variant.jokers ? `${variant.jokers} jokers` : null].filter(Boolean).join(", ");
      this.description.textContent = ruled ? "The house rules below replace the variant."
        : `${variant.description} (Fantasyland: ${sizes || "none"} cards; ${deck}; `
          + `up to ${variant.seats} players.)`;
      const objective = this.inputs.objective;
      if (objective && !ruled) {
        for (const option of objective.options) {
          option.disabled = option.value !== "" && !variant.objectives.includes(option.value);
        }
        if (objective.selectedOptions[0]?.disabled) objective.value = "";
      }
      if (this.inputs.opponents) {
        this.inputs.opponents.max = String(Math.max(1, variant.seats - 1));
        this.inputs.opponents.placeholder = String(Math.max(1, variant.players - 1));
      }
      // Samples the server takes from the variant where neither it nor the config says.
      if (this.inputs.samples && shown(this.schemas.samples.default) === null) {
        this.inputs.samples.placeholder = String(variant.samples);
      }
    }
    if (this.inputs.objective) {
      this.inputs.objective.options[0].textContent = ruled ? "the rules' default"
        : `default (${this.objective})`;
    }
    this.onVariant(variant, ruled);
  }

  /** The rules of a request alone: the house rules' text, or the variant. */
  rulesValues() {
    const { variant, rules } = this.values();
    return rules ? { rules } : { variant };
  }

  /** The request fields: the variant or the rules, and every filled setting. */
  values() {
    const body = {};
    if (this.rules.value.trim()) body.rules = this.rules.value;
    else if (this.variant.value) body.variant = this.variant.value;
    for (const [name, input] of Object.entries(this.inputs)) {
      if (input.type === "checkbox") {
        if (input.checked) body[name] = true;
        continue;
      }
      const text = input.value.trim();
      if (!text) continue;
      const kind = kindOf(this.schemas[name]);
      if (kind === "int" || kind === "number") body[name] = Number(text);
      else if (kind === "ints") body[name] = text.split(/[\s,]+/u).filter(Boolean).map(Number);
      else if (kind === "lines") body[name] = text.split("\n").map((l) => l.trim()).filter(Boolean);
      else body[name] = text;
    }
    return body;
  }
}
