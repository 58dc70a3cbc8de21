// The page of `fantasyland serve`: seven views (Solve, Train, Check, Advise, Review, Score,
// Play)
// behind a tab bar that follows the address's #fragment, so a view can be bookmarked and
// Back works.

import { getJson } from "./api.js";
import { AdviseView } from "./advise.js";
import { CheckView } from "./check.js";
import { setRows } from "./layout.js";
import { PlayView } from "./play.js";
import { ReviewView } from "./review.js";
import { ScoreView } from "./score.js";
import { setFields } from "./settings.js";
import { SolveView } from "./solve.js";
import { TrainView } from "./train.js";

const VIEWS = ["solve", "train", "check", "advise", "review", "score", "play"];
const BUILD = { solve: SolveView, train: TrainView, check: CheckView, advise: AdviseView,
  review: ReviewView, score: ScoreView, play: PlayView };

let views = {};

function show(name) {
  const view = VIEWS.includes(name) ? name : "solve";
  for (const other of VIEWS) {
    document.getElementById(`${other}-view`).hidden = other !== view;
    const tab = document.getElementById(`tab-${other}`);
    if (other === view) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  document.title = `Fantasyland \u00b7 ${view[0].toUpperCase()}${view.slice(1)}`;
  views[view]?.shown?.();
}

// The views are built from what the server serves: the rows of a set (layout.js) and the
// fields each endpoint takes (settings.js).
async function start() {
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  try {
    const [variants, fields] = await Promise.all(["variants", "fields"].map((name) =>
      getJson(`/api/${name}`).catch((error) => {
        throw new Error(`${name}: ${error.message}`);
      })));
    setRows(variants.rows);
    setFields(fields);
    views = Object.fromEntries(VIEWS.map((name) => [name, new BUILD[name]()]));
    for (const view of Object.values(views)) view.setVariants(variants);
    document.body.dataset.ready = "true";
  } catch (error) {
    for (const name of VIEWS) {
      document.getElementById(`${name}-error`).textContent = error.message;
    }
  }
  show(location.hash.slice(1));
}

start();
