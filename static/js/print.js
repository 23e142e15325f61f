// Workspace Booking: the Print button of the posters page. The button is hidden in the HTML and shown
// here, because it does nothing without a script.
var printButton = document.getElementById("print-posters");
if (printButton) {
  printButton.hidden = false;
  printButton.addEventListener("click", function () {
    window.print();
  });
}
