// Workspace Booking: the little script every page loads after htmx. It moves keyboard focus to what htmx
// swapped in when that is a refusal, so that screen readers and keyboard users land on it, and keeps Enter
// in a colleague search from submitting the form around it.
document.addEventListener("htmx:afterSwap", function (event) {
  var target = event.detail.target;
  if (!target) return;
  var focus = target.querySelector("[data-focus]") || (target.id === "notice" ? target : null);
  if (focus) {
    if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    focus.focus();
  }
});

// Enter in a colleague search looks the name up rather than submitting the form around it.
document.addEventListener("keydown", function (event) {
  var input = event.target;
  if (event.key !== "Enter" || !input.matches || !input.matches("input[data-picker]")) return;
  event.preventDefault();
  if (window.htmx) window.htmx.trigger(input, "search");
});
