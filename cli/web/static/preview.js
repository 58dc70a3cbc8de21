// A full set's hands in words while it is being placed (POST /api/score), so that a slip
// (a pair on top over a weaker middle) is seen before the set is graded.

import { postJson } from "./api.js";
import { rowNames } from "./layout.js";

export class SetPreview {
  constructor(element) {
    this.element = element;
    this.asked = 0;  // only the latest question's answer is shown
  }

  async show(board, rules) {
    const asked = ++this.asked;
    this.element.textContent = "";
    if (!board) return;
    let score;
    try {
      score = await postJson("/api/score", { board, ...rules });
    } catch {
      return;  // the grade will say what is wrong
    }
    if (asked !== this.asked) return;
    const rows = rowNames().map((row) => {
      const { hand, royalty } = score.rows[row];
      return `${row}: ${hand}${royalty ? ` (+${royalty})` : ""}`;
    });
    const verdict = score.fouled ? "fouls" : score.stays ? "stays in Fantasyland"
      : `royalties ${score.royalties.total}`;
    this.element.textContent = `${rows.join(" \u00b7 ")} \u2014 ${verdict}`;
    this.element.classList.toggle("fouls", score.fouled);
  }
}
