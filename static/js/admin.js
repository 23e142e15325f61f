// Workspace Booking: the admin pages' small script.
//
// A time zone select marked data-local-time="ID" shows the current time in the chosen zone in the
// element ID, and keeps it current when the choice changes and as the minutes pass. It writes the time as
// the server does, "Mon 09:30", with the weekday in the page's language: the select's data-weekdays holds
// the short names from Sunday to Saturday ("dom lun mar mié jue vie sáb").
(function () {
  var ENGLISH = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
  function show(select) {
    var out = document.getElementById(select.getAttribute("data-local-time"));
    if (!out) return;
    if (!select.value) { out.textContent = "—"; return; }
    try {
      var parts = {};
      new Intl.DateTimeFormat("en-US", {
        timeZone: select.value, weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23"
      }).formatToParts(new Date()).forEach(function (p) { parts[p.type] = p.value; });
      var names = (select.getAttribute("data-weekdays") || "").trim().split(/\s+/);
      if (names.length !== 7) names = ENGLISH;
      var day = ENGLISH.indexOf(parts.weekday);
      if (day < 0) throw new Error("weekday " + parts.weekday);
      out.textContent = names[day] + " " + parts.hour + ":" + parts.minute;
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

// A check box marked data-check-all="NAME" ticks or clears every box named NAME in its form, and shows
// whether all, none or some are ticked. Without the script it stays hidden.
(function () {
  function boxes(all) {
    return all.form ? all.form.querySelectorAll('input[type=checkbox][name="' + all.dataset.checkAll + '"]') : [];
  }
  function update(all) {
    var n = 0, list = boxes(all);
    list.forEach(function (b) { if (b.checked) n++; });
    all.checked = list.length > 0 && n === list.length;
    all.indeterminate = n > 0 && n < list.length;
  }
  function init() {
    document.querySelectorAll("input[data-check-all]").forEach(function (all) {
      all.hidden = false;
      update(all);
    });
  }
  document.addEventListener("change", function (event) {
    var t = event.target;
    if (!t.matches || !t.matches("input[type=checkbox]")) return;
    if (t.dataset.checkAll) {
      boxes(t).forEach(function (b) { b.checked = t.checked; });
      return;
    }
    if (t.form) t.form.querySelectorAll('input[data-check-all="' + t.name + '"]').forEach(update);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
