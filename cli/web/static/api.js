// Talking to the server: JSON in, JSON out, and the one-line error of a refused request.

export class ApiError extends Error {}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const line = body && typeof body.error === "string" ? body.error
      : `the server answered ${response.status} ${response.statusText}`.trim();
    throw new ApiError(line);
  }
  if (body === null) throw new ApiError("the server's answer was not JSON");
  return body;
}

async function send(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("the server cannot be reached: is fantasyland serve still running?");
  }
  return answer(response);
}

export function getJson(path) {
  return send(path, { headers: { Accept: "application/json" } });
}

export function postJson(path, body) {
  return send(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** One request at a time per view: while `work` runs the view is busy (its buttons are
 * disabled, its result marked aria-busy, its status says what is going on and counts the
 * seconds, and `progress`, a <progress> bar, shows), a second submit is ignored, and an
 * error lands in the view's alert line. */
export class Busy {
  constructor({ buttons, status, alert, result, progress = null }) {
    this.buttons = buttons;
    this.status = status;
    this.alert = alert;
    this.result = result;
    this.progress = progress;
    this.running = false;
  }

  async run(message, work) {
    if (this.running) return undefined;
    this.running = true;
    const disabled = this.buttons.map((button) => button.disabled);
    for (const button of this.buttons) button.disabled = true;
    this.result?.setAttribute("aria-busy", "true");
    this.status.textContent = message;
    this.status.classList.add("busy");
    this.alert.textContent = "";
    if (this.progress) this.progress.hidden = false;
    const started = performance.now();
    // The server gives no fraction done, so the wait is counted: a request that takes
    // seconds shows it is still running. The count is the status's last word but not in
    // its announcements (one a second would drown them).
    const seconds = document.createElement("span");
    seconds.className = "seconds";
    seconds.setAttribute("aria-hidden", "true");
    this.status.append(seconds);
    const clock = setInterval(() => {
      seconds.textContent = ` ${Math.floor((performance.now() - started) / 1000)} s`;
    }, 1000);
    try {
      const value = await work();
      const took = ((performance.now() - started) / 1000).toFixed(1);
      this.status.textContent = `done in ${took} s`;
      return value;
    } catch (error) {
      this.status.textContent = "";
      this.alert.textContent = error instanceof ApiError ? error.message
        : `the page failed: ${error.message}`;
      return undefined;
    } finally {
      clearInterval(clock);
      if (this.progress) this.progress.hidden = true;
      this.buttons.forEach((button, i) => { button.disabled = disabled[i]; });
      this.result?.removeAttribute("aria-busy");
      this.status.classList.remove("busy");
      this.running = false;
    }
  }
}
