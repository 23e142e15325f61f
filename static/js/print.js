// Workspace Booking: the Print button of the posters page (it needs a script, so it shows only with one).
var printButton = document.getElementById("print-posters");
if (printButton) {
  printButton.hidden = false;
  printButton.addEventListener("click", function () {
    window.print();
  });
}
