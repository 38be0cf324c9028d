// ajaxlab's web UI script, embedded in the coordinator: no framework, no CDN.
//
// Live updates: the page opens /events naming the URL of every element
// with data-live="URL". The coordinator sends each of those parts down
// the stream as a "part" event (its URL on the first line, its HTML after)
// when a campaign makes progress or changes state, at most about once a
// second, and the element's contents are replaced: the page stays current
// without reloading, and without a request per part. When a campaign
// followed live ends, the tab's title says so, and a browser notification
// too if the operator asked for one. A "copy" button
// copies the text of the element its data-copy names.
(function () {
  "use strict";
  const status = document.getElementById("live-status");
  const parts = Array.from(document.querySelectorAll("[data-live]"));

  // Whether `el` shows a campaign that has ended, and what it says of it.
  function ending(el) {
    const state = el.querySelector("[data-over]");
    return state && state.dataset.over === "true" ? state.dataset.summary : null;
  }

  // The state badge in the page's heading follows the live part's state.
  function followState(el) {
    const state = el.querySelector("[data-state]");
    const badge = document.querySelector("h1 .badge");
    if (state && badge) {
      badge.textContent = state.dataset.state;
      badge.className = "badge state-" + state.dataset.state;
    }
  }

  // A campaign watched live has just ended: the tab's title says so, and a
  // notification where the browser allows one; its actions are gone.
  function announce(summary) {
    if (!document.title.startsWith("Ended: ")) { document.title = "Ended: " + document.title; }
    document.querySelectorAll(".actions, #notify").forEach((e) => e.remove());
    if (window.Notification && Notification.permission === "granted") {
      new Notification("ajaxlab", { body: summary });
    }
  }

  function replace(event) {
    const newline = event.data.indexOf("\n");
    const url = newline < 0 ? event.data : event.data.slice(0, newline);
    const html = newline < 0 ? "" : event.data.slice(newline + 1);
    for (const el of parts) {
      if (el.dataset.live !== url) { continue; }
      const before = ending(el);
      el.innerHTML = html;
      const after = ending(el);
      followState(el);
      if (!before && after) { announce(after); }
    }
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  }

  if (parts.length > 0 && window.EventSource) {
    const urls = parts.map((el) => el.dataset.live).join(" ");
    const events = new EventSource("/events?parts=" + encodeURIComponent(urls));
    events.addEventListener("part", replace);
    events.onopen = () => { if (status) { status.textContent = "live"; status.className = "on"; } };
    events.onerror = () => { if (status) { status.textContent = "reconnecting"; status.className = "off"; } };
  }

  // "Notify me when it ends": asks the browser's leave to notify. Browsers
  // allow notifications on https and localhost only; elsewhere the tab's
  // title says when the campaign ends.
  const notify = document.getElementById("notify");
  if (notify) {
    if (!window.Notification || !window.isSecureContext) {
      notify.disabled = true;
      notify.textContent = "The tab's title will say when it ends (notifications need https or localhost)";
    } else if (Notification.permission === "granted") {
      notify.disabled = true;
      notify.textContent = "You will be notified when it ends";
    } else {
      notify.addEventListener("click", () => {
        Notification.requestPermission().then((answer) => {
          notify.disabled = true;
          notify.textContent = answer === "granted"
            ? "You will be notified when it ends"
            : "Notifications refused: the tab's title will say when it ends";
        });
      });
    }
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy]");
    if (!button) { return; }
    const source = document.getElementById(button.dataset.copy);
    if (!source) { return; }
    const text = source.textContent;
    const done = () => { button.textContent = "Copied"; setTimeout(() => { button.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done);
    } else {
      const area = document.createElement("textarea");
      area.value = text;
      document.body.appendChild(area);
      area.select();
      document.execCommand("copy");
      area.remove();
      done();
    }
  });

  // A confirm() before an action that cannot be undone (stop, exclude).
  document.addEventListener("submit", (event) => {
    const question = event.target.dataset.confirm;
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });
})();
