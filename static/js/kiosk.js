// Workspace Booking: the reception kiosk. "Scan a poster" starts the tablet's camera and reads a poster's
// QR code, whose content is the poster page's address (BASE_URL/p/CODE), then shows that resource; a code
// that is not a poster of this service is refused. The camera is released when the page is left. After a
// minute without a touch or a key, the kiosk goes back to scanning. Loaded as a module: qr-scanner loads its
// worker only when it needs one (browsers with BarcodeDetector need none).
import QrScanner from "/static/js/qr-scanner.min.js";

const root = document.querySelector("[data-kiosk-idle]");
const idleMs = (Number(root && root.dataset.kioskIdle) || 60) * 1000;
const onScanPage = !!(root && root.hasAttribute("data-kiosk-home"));

const startButton = document.getElementById("scan-start");
const area = document.getElementById("scan-area");
const video = document.getElementById("scan-video");
const stopButton = document.getElementById("scan-stop");
const message = document.getElementById("scan-message");
let scanner = null;

// say writes a message where screen readers hear it.
function say(text) {
  if (message) message.textContent = text;
}

// posterCode reads the poster code from a QR code's content: the CODE of an address of this service's
// poster page (…/p/CODE, at this page's origin or at the service's public address), or a bare code as
// printed on the poster. It is "" for anything else: another site's address, another page of this
// service, a Wi-Fi code.
function posterCode(text) {
  text = String(text || "").trim();
  let url = null;
  try {
    url = new URL(text);
  } catch (e) {
    // not an address: a bare code, letters, digits and dashes
    return /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(text) ? text : "";
  }
  const main = document.getElementById("main");
  const origins = [window.location.origin];
  try {
    if (main && main.dataset.baseUrl) origins.push(new URL(main.dataset.baseUrl).origin);
  } catch (e) {
    // no usable public address: this page's origin only
  }
  if (!origins.includes(url.origin)) return "";
  const match = url.pathname.match(/^\/p\/([^/]+)\/?$/);
  if (!match) return "";
  try {
    return decodeURIComponent(match[1]).trim();
  } catch (e) {
    return "";
  }
}

// scanned handles what the camera read: a poster of this service opens its resource; anything else is
// said, and scanning goes on.
let lastRefused = "";
function scanned(text) {
  const code = posterCode(text);
  if (!code) {
    if (text !== lastRefused) {
      lastRefused = text;
      say("This QR code is not a poster of this service. Scan the poster on a desk or a room, or type its code below.");
    }
    return;
  }
  stopScan();
  say("Found the poster " + code + ". Loading it…");
  window.location.assign("/kiosk/resource?code=" + encodeURIComponent(code));
}

function found(result) {
  scanned(result && result.data);
}

// The preview is mirrored only for a camera that faces the user: the rear camera, or one whose facing is
// not known, shows the poster as it is.
function setMirror() {
  const stream = video && video.srcObject;
  const track = stream && stream.getVideoTracks && stream.getVideoTracks()[0];
  const facing = track && track.getSettings ? track.getSettings().facingMode : "";
  video.classList.toggle("mirrored", facing === "user");
}

async function startScan() {
  if (!window.isSecureContext || !navigator.mediaDevices) {
    say("The camera needs a secure (https) connection. Type the poster code below instead.");
    return;
  }
  say("Starting the camera…");
  if (!(await QrScanner.hasCamera())) {
    say("No camera was found on this device. Type the poster code below instead.");
    return;
  }
  if (!scanner) {
    scanner = new QrScanner(video, found, {
      returnDetailedScanResult: true,
      preferredCamera: "environment",
      maxScansPerSecond: 10,
    });
  }
  area.hidden = false;
  startButton.hidden = true;
  try {
    await scanner.start();
    setMirror();
    lastRefused = "";
    say("Hold the poster's QR code in front of the camera.");
    stopButton.focus();
  } catch (err) {
    stopScan();
    say("The camera could not start: permission was refused, or another app is using it. " +
      "Allow the camera for this site in the browser's settings, or type the poster code below.");
  }
}

function stopScan() {
  if (scanner) scanner.stop();
  if (area) area.hidden = true;
  if (startButton) startButton.hidden = false;
}

// Leaving the page releases the camera at once (stop alone waits a moment, which a page being left does
// not have); a page restored from the back-forward cache starts a new scanner when asked.
window.addEventListener("pagehide", function () {
  if (!scanner) return;
  scanner.pause(true);
  scanner.destroy();
  scanner = null;
  if (area) area.hidden = true;
  if (startButton) startButton.hidden = false;
});

// For the tests of the page: how a scanned content is read, and what a scan does.
window.kiosk = Object.freeze({ posterCode: posterCode, scanned: scanned });

if (startButton && area && video) {
  startButton.hidden = false;
  startButton.addEventListener("click", startScan);
  stopButton.addEventListener("click", function () {
    stopScan();
    say("The camera is off.");
    startButton.focus();
  });
}

// Going back to scanning after a while without a touch or a key: from a resource, to the start page; on
// the start page, the camera stops and the typed code is cleared.
let timer = 0;
function idle() {
  if (!onScanPage) {
    window.location.assign("/kiosk");
    return;
  }
  const typed = document.getElementById("code");
  if (typed) typed.value = "";
  if (scanner && area && !area.hidden) {
    stopScan();
    say("The camera stopped after a minute without use. Press “Scan a poster” to start it again.");
  }
}
function active() {
  clearTimeout(timer);
  timer = setTimeout(idle, idleMs);
}
if (root) {
  for (const type of ["pointerdown", "keydown", "input", "wheel", "touchstart"]) {
    document.addEventListener(type, active, { capture: true, passive: true });
  }
  active();
}
