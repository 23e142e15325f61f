// Workspace Booking: the small script that every page loads after htmx.
//
// After htmx swaps in content, move keyboard focus to the element marked data-focus, or to the notice
// area when that was the target, so that screen reader and keyboard users land on the message.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (!target) return;
  var focus = target.querySelector("[data-focus]") || (target.id === "notice" ? target : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});

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
