// Reads one iCalendar document from stdin with ical.js, an independent RFC 5545 parser, and writes
// what it read as JSON: the calendar's properties, the TZIDs of its VTIMEZONEs, and each VEVENT with
// its times as UTC instants, worked out by ical.js from the document's own VTIMEZONEs.
// A document ical.js cannot parse makes it exit with status 1 and the reason on stderr.
import ICAL from "ical.js";

const text = await new Promise((done) => {
  let data = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => data += chunk);
  process.stdin.on("end", () => done(data));
});

const calendar = new ICAL.Component(ICAL.parse(text));
if (calendar.name !== "vcalendar") {
  throw new Error(`the document is a ${calendar.name}, not a vcalendar`);
}

const value = (comp, name) => {
  const v = comp.getFirstPropertyValue(name);
  return v === null ? null : v;
};

// xText reads an X- property as TEXT, its default type (RFC 5545 §3.8.8.2): ical.js leaves the
// properties it does not know as they were written, escapes and all.
const xText = (comp, name) => {
  const v = value(comp, name);
  return v === null ? null : ICAL.design.icalendar.value.text.fromICAL(v);
};

// instant gives a DATE-TIME as an instant in UTC, and the zone ical.js read it in: a TZID it found
// a VTIMEZONE for, "UTC", or "floating" when the TZID has no VTIMEZONE.
const instant = (comp, name) => {
  const t = comp.getFirstPropertyValue(name);
  if (t === null) return {at: null, zone: null};
  return {at: new Date(t.toUnixTime() * 1000).toISOString(), zone: t.zone ? t.zone.tzid : null};
};

const person = (prop) => ({
  name: prop.getParameter("cn") ?? "",
  address: prop.getFirstValue(),
  role: prop.getParameter("role") ?? "",
  partstat: prop.getParameter("partstat") ?? "",
  rsvp: String(prop.getParameter("rsvp") ?? ""),
});

// occurrences expands a VEVENT's RRULE, leaving out its EXDATEs, into the starts of its occurrences as
// instants; null for an event that does not repeat.
const occurrences = (e) => {
  if (!e.hasProperty("rrule")) return null;
  const it = new ICAL.Event(e).iterator();
  const out = [];
  for (let next = it.next(); next && out.length < 500; next = it.next()) {
    out.push(new Date(next.toUnixTime() * 1000).toISOString());
  }
  return out;
};

const events = calendar.getAllSubcomponents("vevent").map((e) => {
  const start = instant(e, "dtstart");
  const end = instant(e, "dtend");
  const organizer = e.getFirstProperty("organizer");
  return {
    uid: value(e, "uid"),
    sequence: value(e, "sequence"),
    stamp: instant(e, "dtstamp").at,
    start: start.at,
    startZone: start.zone,
    end: end.at,
    endZone: end.zone,
    summary: value(e, "summary"),
    description: value(e, "description"),
    location: value(e, "location"),
    url: value(e, "url"),
    status: value(e, "status"),
    transp: value(e, "transp"),
    organizer: organizer ? person(organizer) : null,
    attendees: e.getAllProperties("attendee").map(person),
    rrule: e.hasProperty("rrule") ? e.getFirstPropertyValue("rrule").toString() : "",
    exdates: e.getAllProperties("exdate").map((p) => {
      const t = p.getFirstValue();
      return new Date(t.toUnixTime() * 1000).toISOString() + " " + (t.zone ? t.zone.tzid : "");
    }),
    occurrences: occurrences(e),
  };
});

process.stdout.write(JSON.stringify({
  method: value(calendar, "method"),
  prodid: value(calendar, "prodid"),
  version: value(calendar, "version"),
  calscale: value(calendar, "calscale"),
  name: xText(calendar, "x-wr-calname"),
  timezones: calendar.getAllSubcomponents("vtimezone").map((z) => value(z, "tzid")),
  events,
}));
