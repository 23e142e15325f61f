// Workspace Booking: the small script that every page loads after htmx.
//
// After htmx swaps in content, move keyboard focus to the element marked data-focus, or to the notice
// area when that was the target, so that screen reader and keyboard users land on the message. The
// event is fired on what was swapped in: with hx-swap="outerHTML" the target itself has left the page.
document.addEventListener("htmx:afterSwap", function (event) {
  var swapped = event.target;
  if (!swapped || !swapped.querySelector) return;
  var focus = (swapped.matches("[data-focus]") ? swapped : swapped.querySelector("[data-focus]")) ||
    (swapped.id === "notice" ? swapped : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});

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

function markChosen(spot, chosen) {
  var label = (spot.getAttribute("aria-label") || "").replace(/, chosen$/, "");
  spot.setAttribute("aria-label", chosen ? label + ", chosen" : label);
  spot.classList.toggle("selected", chosen);
  if (chosen) spot.setAttribute("aria-current", "true");
  else spot.removeAttribute("aria-current");
}
