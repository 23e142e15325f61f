// Package svgsafe rewrites an untrusted SVG image into one that only draws: it keeps a list of known
// drawing elements and presentation attributes and drops everything else, so that what it returns runs
// no script, loads nothing from elsewhere and reacts to no event.
//
// It reads the document as XML with encoding/xml and writes it anew element by element, from allow
// lists, rather than removing what is known to be dangerous. It refuses what only an attack needs: a
// document type declaration (entities, "billion laughs"), a document nested deeper than MaxDepth or with
// more than MaxElements elements, and text that is not UTF-8.
package svgsafe

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Limits of a document Sanitize accepts.
const (
	MaxDepth      = 64      // elements nested in one another
	MaxElements   = 200_000 // elements in the whole document
	MaxAttributes = 256     // attributes of one element
)

// The namespaces Sanitize understands.
const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
)

// Error is a refusal: the input is not an SVG document Sanitize accepts. Its message says why, in words
// an uploader can act on.
type Error struct{ Reason string }

func (e *Error) Error() string { return e.Reason }

func refuse(format string, args ...any) error { return &Error{Reason: fmt.Sprintf(format, args...)} }

// elements are the SVG elements kept: shapes, text, structure, paint servers, clipping, masking and
// simple filters. Scripts, foreignObject, animation (which can set an href), links, fonts, feImage and
// everything unknown are left out, with their content.
var elements = set(
	"svg", "g", "defs", "symbol", "use", "title", "desc", "switch",
	"path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
	"text", "tspan", "textPath",
	"linearGradient", "radialGradient", "stop", "pattern",
	"clipPath", "mask", "marker", "image", "style",
	"filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feDropShadow",
	"feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feMerge", "feMergeNode",
	"feMorphology", "feOffset",
)

// unwrapped are elements dropped while their content is kept: a link's drawing stays, the link goes.
var unwrapped = set("a")

// attributes are the attributes without a namespace that are kept, on any kept element: geometry,
// presentation, text layout, paint servers, filters and accessibility. Event handlers (on*) and anything
// unknown are dropped. href is kept only where hrefAllowed says.
var attributes = set(
	"id", "class", "style", "transform", "lang", "role", "aria-label", "aria-hidden", "aria-labelledby",
	"aria-describedby", "version", "viewBox", "preserveAspectRatio", "width", "height", "x", "y",
	"x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "fx", "fy", "fr", "d", "points", "pathLength",
	"dx", "dy", "rotate", "textLength", "lengthAdjust", "startOffset", "method", "spacing", "side",
	"fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
	"stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "color",
	"display", "visibility", "overflow", "vector-effect", "paint-order", "shape-rendering",
	"text-rendering", "image-rendering", "color-interpolation", "color-interpolation-filters",
	"mix-blend-mode", "isolation", "clip-path", "clip-rule", "mask", "filter", "marker-start",
	"marker-mid", "marker-end", "font-family", "font-size", "font-weight", "font-style", "font-variant",
	"font-stretch", "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift",
	"letter-spacing", "word-spacing", "text-decoration", "writing-mode", "white-space",
	"offset", "stop-color", "stop-opacity", "gradientUnits", "gradientTransform", "spreadMethod",
	"patternUnits", "patternContentUnits", "patternTransform", "clipPathUnits", "maskUnits",
	"maskContentUnits", "markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient",
	"filterUnits", "primitiveUnits", "stdDeviation", "in", "in2", "result", "mode", "type", "values",
	"operator", "k1", "k2", "k3", "k4", "radius", "flood-color", "flood-opacity", "lighting-color",
	"tableValues", "slope", "intercept", "amplitude", "exponent", "media", "href",
)

// hrefAllowed are the elements whose href (or xlink:href) is kept, when it passes safeHref.
var hrefAllowed = set("use", "image", "linearGradient", "radialGradient", "pattern", "textPath", "filter")

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	// fragment is a reference to an element of the same document.
	fragment = regexp.MustCompile(`^#[A-Za-z_][A-Za-z0-9_.:-]*$`)
	// rasterData is a PNG or JPEG image inside the document, base64-encoded.
	rasterData = regexp.MustCompile(`^data:image/(png|jpeg);base64,[A-Za-z0-9+/=\s]*$`)
	// urlRef finds every url(...) in CSS or a presentation attribute, with what it points to.
	urlRef = regexp.MustCompile(`(?i)url\(\s*(['"]?)([^)'"]*)(['"]?)\s*\)`)
)

// Sanitize returns src rewritten as a safe SVG document, or an *Error saying why src is refused: it is
// not well-formed XML, not UTF-8, has no <svg> root, has a document type declaration, or is beyond the
// limits above. Comments, processing instructions and everything not on the allow lists are dropped.
func Sanitize(src []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true // unknown entities and mismatched tags are errors
	// A document that declares another encoding is refused rather than converted.
	d.CharsetReader = func(charset string, _ io.Reader) (io.Reader, error) {
		return nil, fmt.Errorf("encoding %q is not supported; save it as UTF-8", charset)
	}

	s := &sanitizer{src: src, empty: -1}
	s.out.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, refuse("not a well-formed SVG document: %v", err)
		}
		if err := s.token(tok); err != nil {
			return nil, err
		}
	}
	if s.count == 0 {
		return nil, refuse("no <svg> element")
	}
	s.out.WriteString("\n")
	return s.out.Bytes(), nil
}

// sanitizer is what Sanitize has read of a document so far, and what it has written.
type sanitizer struct {
	src   []byte          // the whole input: no style sheet may be longer
	out   bytes.Buffer    // the safe document
	stack []state         // one per open element of the input
	css   strings.Builder // the text of the <style> element being read
	count int             // the elements read so far
	empty int             // where the last start tag written ends, while nothing follows it; -1 at first
}

// token writes what the safe document keeps of one token of the input, or refuses the document.
func (s *sanitizer) token(tok xml.Token) error {
	parent := kept
	if len(s.stack) > 0 {
		parent = s.stack[len(s.stack)-1]
	}
	switch t := tok.(type) {
	case xml.StartElement:
		return s.start(t, parent)
	case xml.EndElement:
		s.end(t)
	case xml.CharData:
		return s.text(t, parent)
	case xml.Directive:
		return refuse("document type declarations (<!DOCTYPE>, <!ENTITY>) are not allowed")
	case xml.ProcInst, xml.Comment:
		// Dropped: <?xml-stylesheet?> would load a style sheet, and comments draw nothing.
	}
	return nil
}

// start opens an element inside parent. It refuses an element beyond the limits, a second root, and a
// root that is not <svg>.
func (s *sanitizer) start(t xml.StartElement, parent state) error {
	s.count++
	if s.count > MaxElements {
		return refuse("more than %d elements", MaxElements)
	}
	if len(s.stack) >= MaxDepth {
		return refuse("elements nested more than %d deep", MaxDepth)
	}
	if len(t.Attr) > MaxAttributes {
		return refuse("an element with more than %d attributes", MaxAttributes)
	}
	if len(s.stack) == 0 && s.count > 1 {
		return refuse("more than one root element")
	}
	if len(s.stack) == 0 && (!inSVG(t.Name) || t.Name.Local != "svg") {
		return refuse("the root element is <%s>, not <svg>", t.Name.Local)
	}
	st := classify(t.Name, parent)
	switch st {
	case kept:
		writeStart(&s.out, t.Name.Local, t.Attr, len(s.stack) == 0)
		s.empty = s.out.Len()
	case styleSheet:
		s.css.Reset()
	}
	s.stack = append(s.stack, st)
	return nil
}

// end closes the innermost open element, and writes a style sheet once it is read whole.
func (s *sanitizer) end(t xml.EndElement) {
	st := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	switch st {
	case kept:
		if s.out.Len() == s.empty {
			// Nothing inside: write <rect/> rather than <rect></rect>.
			s.out.Truncate(s.out.Len() - 1)
			s.out.WriteString("/>")
		} else {
			s.out.WriteString("</" + t.Name.Local + ">")
		}
	case styleSheet:
		// A style sheet that could load anything is dropped whole.
		if text := s.css.String(); safeCSS(text) {
			writeStart(&s.out, t.Name.Local, nil, false)
			escapeText(&s.out, text)
			s.out.WriteString("</style>")
		}
	}
}

// text writes text inside a kept element, and gathers that of a style sheet. It refuses a style sheet
// longer than the document.
func (s *sanitizer) text(t xml.CharData, parent state) error {
	switch {
	case len(s.stack) == 0:
	case parent == kept || parent == unwrap:
		escapeText(&s.out, string(t))
	case parent == styleSheet:
		if s.css.Len()+len(t) > len(s.src) {
			return refuse("a style sheet longer than the document")
		}
		s.css.Write(t)
	}
	return nil
}

// state is what Sanitize does with an element of the input.
type state int

const (
	kept       state = iota // written, with its allowed attributes
	unwrap                  // left out, its content kept
	skipped                 // left out with its content
	styleSheet              // a <style> element: written at its end if its text is safe
)

// classify decides what becomes of an element inside parent.
func classify(n xml.Name, parent state) state {
	switch {
	case parent == skipped || parent == styleSheet:
		return skipped
	case !inSVG(n):
		return skipped
	case n.Local == "style":
		return styleSheet
	case elements[n.Local]:
		return kept
	case unwrapped[n.Local]:
		return unwrap
	}
	return skipped
}

// inSVG reports whether an element is in the SVG namespace, or in none (an SVG file without xmlns).
func inSVG(n xml.Name) bool { return n.Space == svgNS || n.Space == "" }

// writeStart writes a start tag with the attributes that keepAttr keeps, each once. The root declares
// the namespaces, so that every element below is written without a prefix.
func writeStart(out *bytes.Buffer, name string, attrs []xml.Attr, root bool) {
	out.WriteString("<" + name)
	if root {
		out.WriteString(` xmlns="` + svgNS + `" xmlns:xlink="` + xlinkNS + `"`)
	}
	written := make(map[string]bool, len(attrs))
	for _, a := range attrs {
		n, ok := keepAttr(name, a)
		if !ok || written[n] {
			continue
		}
		written[n] = true
		out.WriteString(" " + n + `="`)
		_, _ = attrEscaper.WriteString(out, a.Value)
		out.WriteString(`"`)
	}
	out.WriteString(">")
}

// keepAttr returns the name an attribute of the element is written with, and false for one that is
// dropped: an event handler, one not on the allow lists, a namespace declaration (the root declares its
// own), an href that points outside the document, or a value that could run or load something.
func keepAttr(elem string, a xml.Attr) (string, bool) {
	var name string
	switch {
	case a.Name.Space == "" && a.Name.Local == "href", a.Name.Space == xlinkNS && a.Name.Local == "href":
		if !hrefAllowed[elem] || !safeHref(elem, a.Value) {
			return "", false
		}
		if a.Name.Space == xlinkNS {
			return "xlink:href", true
		}
		return "href", true
	case a.Name.Space == "" && attributes[a.Name.Local] && !strings.HasPrefix(strings.ToLower(a.Name.Local), "on"):
		name = a.Name.Local
	case a.Name.Space == xmlNS && (a.Name.Local == "space" || a.Name.Local == "lang"):
		name = "xml:" + a.Name.Local
	default:
		return "", false
	}
	return name, safeCSS(a.Value)
}

// safeHref reports whether an href points inside the document (#id), or, on <image>, holds a PNG or
// JPEG image itself (a data: URL).
func safeHref(elem, v string) bool {
	v = strings.TrimSpace(v)
	return fragment.MatchString(v) || (elem == "image" && rasterData.MatchString(v))
}

// unsafeCSS are the pieces of CSS (or of an attribute value) that can run code or load something, once
// white space and control characters are removed and letters lower-cased. A backslash is refused
// because CSS escapes could spell any of them.
var unsafeCSS = []string{
	"javascript:", "vbscript:", "data:", "expression(", "behavior:", "-moz-binding", "image-set(", "@", `\`,
	"<", "src(",
}

// safeCSS reports whether a style sheet, a style attribute or a presentation attribute refers to
// nothing outside the document: every url() is a #fragment, and none of unsafeCSS appears.
func safeCSS(v string) bool {
	compact := strings.Map(func(r rune) rune {
		if r <= ' ' || r == 0x7f {
			return -1
		}
		return r
	}, strings.ToLower(v))
	for _, bad := range unsafeCSS {
		if strings.Contains(compact, bad) {
			return false
		}
	}
	refs := urlRef.FindAllStringSubmatch(v, -1)
	if len(refs) != strings.Count(compact, "url(") {
		return false // a url( that the pattern does not read as a whole, e.g. one never closed
	}
	for _, m := range refs {
		if m[1] != m[3] || !fragment.MatchString(strings.TrimSpace(m[2])) {
			return false
		}
	}
	return true
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
		"\t", "&#x9;", "\n", "&#xA;", "\r", "&#xD;")
)

// escapeText writes character data, escaped.
func escapeText(out *bytes.Buffer, s string) { _, _ = textEscaper.WriteString(out, s) }
