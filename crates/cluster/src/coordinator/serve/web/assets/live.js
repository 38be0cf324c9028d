// ajaxlab's web UI script, embedded in the coordinator: no framework, no CDN.
//
// Live updates: the coordinator sends an event on /events when a campaign
// makes progress or changes state (at most about once a second). Every
// element with data-live="URL" is then fetched again and its contents
// replaced, so the page stays current without reloading. A "copy" button
// copies the text of the element its data-copy names.
(function () {
  "use strict";
  const status = document.getElementById("live-status");
  const parts = () => Array.from(document.querySelectorAll("[data-live]"));
  let busy = false;
  let again = false;

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      for (const el of parts()) {
        const response = await fetch(el.dataset.live, { credentials: "same-origin" });
        if (response.ok) { el.innerHTML = await response.text(); }
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
