// Workspace Booking: the admin pages' small script.
//
// A time zone select marked data-local-time="ID" shows the current time in the chosen zone in the
// element ID, and keeps it current when the choice changes and as the minutes pass.
(function () {
  function show(select) {
    var out = document.getElementById(select.getAttribute("data-local-time"));
    if (!out) return;
    if (!select.value) { out.textContent = "—"; return; }
    try {
      out.textContent = new Intl.DateTimeFormat(undefined, {
        timeZone: select.value, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23"
      }).format(new Date());
    } catch (e) {
      out.textContent = "—";
    }
  }
  function all() {
    document.querySelectorAll("select[data-local-time]").forEach(show);
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("select[data-local-time]")) show(event.target);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", all); else all();
  setInterval(all, 30000);
})();
