// Workspace Booking: the small script that every page loads after htmx.
//
// After htmx swaps in content, move keyboard focus to the element marked data-focus, or to the notice
// area when that was the target, so that screen reader and keyboard users land on the message. The
// event is fired on what was swapped in; a target swapped whole (outerHTML) has left the page, so its
// replacement, with the same id, is looked in too.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (target && !target.isConnected && target.id) target = document.getElementById(target.id);
  var focus = focusIn(event.target) || focusIn(target);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});

// focusIn returns what to focus in el: el itself or a descendant marked data-focus, or el when it is the
// notice area.
function focusIn(el) {
  if (!el || !el.querySelector) return null;
  return (el.matches("[data-focus]") ? el : el.querySelector("[data-focus]")) || (el.id === "notice" ? el : null);
}

// On a narrow screen the office settings' sections are a row of tabs wider than the screen: scroll the
// row so that the current section's tab is in view.
(function () {
  var current = document.querySelector('.admin-nav a[aria-current="page"]');
  var row = current && current.closest("ul");
  if (!row || row.scrollWidth <= row.clientWidth) return;
  var from = current.getBoundingClientRect().left - row.getBoundingClientRect().left;
  row.scrollLeft += from - (row.clientWidth - current.offsetWidth) / 2;
})();

// Pressing Enter in a colleague search looks the name up instead of submitting the surrounding form.
document.addEventListener("keydown", function (event) {
  var input = event.target;
  if (event.key !== "Enter" || !input.matches || !input.matches("input[data-picker]")) return;
  event.preventDefault();
  if (window.htmx) window.htmx.trigger(input, "search");
});

// Choosing a desk or room on the floor plan marks it as the chosen one at once, in its looks and in
// words, while its panel loads beside the plan.
document.addEventListener("htmx:beforeRequest", function (event) {
  var spot = event.detail.elt;
  if (!spot || !spot.matches || !spot.matches("svg.plan a.spot")) return;
  document.querySelectorAll("svg.plan a.spot.selected").forEach(function (s) { markChosen(s, false); });
  markChosen(spot, true);
});

// The word that marks the chosen one is the page's language's, as the plan's frame holds it (data-chosen).
function markChosen(spot, chosen) {
  var frame = spot.closest("[data-chosen]");
  var suffix = ", " + (frame ? frame.getAttribute("data-chosen") : "chosen");
  var label = spot.getAttribute("aria-label") || "";
  if (label.slice(-suffix.length) === suffix) label = label.slice(0, -suffix.length);
  spot.setAttribute("aria-label", chosen ? label + suffix : label);
  spot.classList.toggle("selected", chosen);
  if (chosen) spot.setAttribute("aria-current", "true");
  else spot.removeAttribute("aria-current");
}

// The booking form reads its services again when what they depend on changes: the rooms, the days, the
// hours or the people invited. The services' own fields do not, so that what is typed there stays.
document.addEventListener("change", function (event) {
  var input = event.target;
  var form = input && input.form;
  if (!form || !form.classList.contains("booking-form")) return;
  if (["resource", "date", "from", "to", "allday", "attendee", "guests"].indexOf(input.name) < 0) return;
  var services = form.querySelector("#b-services");
  if (services && window.htmx) window.htmx.trigger(services, "services");
});

// The search on a phone: the filters fold into one line, and a bar at the bottom of the screen names the
// ticked spaces with a Book button while the booking form is out of view.
(function () {
  var wide = window.matchMedia("(min-width: 62rem)");

  // On a wide screen the filters are always open. After a search that could not run or found nothing
  // free, they open on a phone too: there is something to change there.
  function unfold() {
    var fold = document.getElementById("filters-fold");
    if (!fold) return;
    if (wide.matches || document.querySelector("#search-problem .notice, #results .no-results")) fold.open = true;
  }

  // The bar hides while any of the booking form is on the screen.
  function placePickBar() {
    var bar = document.getElementById("pick-bar");
    var form = document.getElementById("booking");
    if (!bar || !form) return;
    var r = form.getBoundingClientRect();
    bar.classList.toggle("form-in-view", r.top < window.innerHeight && r.bottom > 0);
  }

  var queued = false;
  function queuePlace() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; placePickBar(); });
  }

  unfold();
  placePickBar();
  window.addEventListener("scroll", queuePlace, { passive: true });
  window.addEventListener("resize", queuePlace);
  wide.addEventListener("change", unfold);
  document.addEventListener("htmx:afterSettle", function () { unfold(); placePickBar(); });

  // Book takes the person to the booking form, with its submit button in view, and moves the focus to
  // the form's heading so that reading goes on from there.
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#pick-bar .pick-book");
    if (!link) return;
    var submit = document.querySelector("#booking-box form button[type=submit]");
    if (!submit) return;
    event.preventDefault();
    submit.scrollIntoView({ block: "center" });
    var heading = document.getElementById("booking-h");
    if (heading) {
      heading.setAttribute("tabindex", "-1");
      heading.focus({ preventScroll: true });
    }
    placePickBar();
  });
})();
