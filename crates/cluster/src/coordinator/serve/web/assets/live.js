// ajaxlab's web UI script, embedded in the coordinator: no framework, no CDN.
//
// Live updates: the coordinator sends an event on /events when a campaign
// makes progress or changes state (at most about once a second). Every
// element with data-live="URL" is then fetched again and its contents
// replaced, so the page stays current without reloading; one that also
// says data-live-every="S" is fetched at most every S seconds (a long
// table), and once more S seconds after a change it skipped. A "copy" button
// copies the text of the element its data-copy names.
(function () {
  "use strict";
  const status = document.getElementById("live-status");
  const parts = () => Array.from(document.querySelectorAll("[data-live]"));
  let busy = false;
  let again = false;

  // When each part was last fetched, and its pending late fetch.
  const fetchedAt = new Map();
  const late = new Map();

  async function fetchPart(el) {
    fetchedAt.set(el, Date.now());
    const response = await fetch(el.dataset.live, { credentials: "same-origin" });
    if (response.ok) { el.innerHTML = await response.text(); }
  }

  // Whether `el` may be fetched now; if not, a fetch is set for when it may.
  function due(el) {
    const every = Number(el.dataset.liveEvery || 0) * 1000;
    const wait = (fetchedAt.get(el) || 0) + every - Date.now();
    if (wait <= 0) { return true; }
    if (!late.has(el)) {
      late.set(el, setTimeout(() => { late.delete(el); fetchPart(el).catch(() => {}); }, wait));
    }
    return false;
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      for (const el of parts()) {
        if (due(el)) { await fetchPart(el); }
      }
      document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
    } catch (e) {
      // The next event tries again.
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  if (parts().length > 0 && window.EventSource) {
    const events = new EventSource("/events");
    events.addEventListener("change", refresh);
    events.onopen = () => { if (status) { status.textContent = "live"; status.className = "on"; } };
    events.onerror = () => { if (status) { status.textContent = "reconnecting"; status.className = "off"; } };
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
