package svgsafe_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/svgsafe"
)

const (
	head = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
	open = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">`
	ns   = `xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"`
)

// doc wraps body in an <svg> root as an uploader would send it.
func doc(body string) string {
	return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">` + body + `</svg>`
}

// sanitized is what Sanitize writes for a root holding body.
func sanitized(body string) string {
	if body == "" {
		return head + strings.TrimSuffix(open, ">") + "/>\n"
	}
	return head + open + body + "</svg>\n"
}

// TestGoodPlanKeepsItsDrawing checks that a plan as drawing programs export it comes out with every shape,
// text, gradient, reference and style it draws with, and without the editor's metadata and comments.
func TestGoodPlanKeepsItsDrawing(t *testing.T) {
	t.Parallel()
	in := `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Generator: a drawing program -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="1200" height="800" viewBox="0 0 1200 800" inkscape:version="1.3">
  <title>Floor 1 &amp; lobby</title>
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <defs>
    <style type="text/css">.wall{fill:none;stroke:#333;stroke-width:4} .room{fill:url(#floor)}</style>
    <linearGradient id="floor" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#eee"/><stop offset="1" stop-color="#ddd"/></linearGradient>
    <symbol id="desk" viewBox="0 0 10 10"><rect width="10" height="6" rx="1"/></symbol>
  </defs>
  <g id="walls" class="wall" transform="translate(10 10)" inkscape:label="Walls">
    <path d="M0 0H1180V780H0Z"/>
    <polyline points="400,0 400,300"/>
  </g>
  <rect class="room" x="20" y="20" width="360" height="260" style="opacity:0.9;fill:url('#floor')"/>
  <use xlink:href="#desk" x="50" y="50" width="40" height="40"/>
  <use href="#desk" x="100" y="50" width="40" height="40"/>
  <image x="0" y="0" width="2" height="2" href="data:image/png;base64,iVBORw0KGgo="/>
  <text x="200" y="150" font-family="Helvetica, sans-serif" font-size="24" text-anchor="middle" xml:space="preserve">Goya <tspan font-weight="bold">3 &lt; 4</tspan></text>
  <a href="https://example.com/"><circle cx="600" cy="400" r="20" fill="red"/></a>
</svg>
`
	want := head + `<svg ` + ns + ` width="1200" height="800" viewBox="0 0 1200 800">
  <title>Floor 1 &amp; lobby</title>
  
  <defs>
    <style>.wall{fill:none;stroke:#333;stroke-width:4} .room{fill:url(#floor)}</style>
    <linearGradient id="floor" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#eee"/><stop offset="1" stop-color="#ddd"/></linearGradient>
    <symbol id="desk" viewBox="0 0 10 10"><rect width="10" height="6" rx="1"/></symbol>
  </defs>
  <g id="walls" class="wall" transform="translate(10 10)">
    <path d="M0 0H1180V780H0Z"/>
    <polyline points="400,0 400,300"/>
  </g>
  <rect class="room" x="20" y="20" width="360" height="260" style="opacity:0.9;fill:url('#floor')"/>
  <use xlink:href="#desk" x="50" y="50" width="40" height="40"/>
  <use href="#desk" x="100" y="50" width="40" height="40"/>
  <image x="0" y="0" width="2" height="2" href="data:image/png;base64,iVBORw0KGgo="/>
  <text x="200" y="150" font-family="Helvetica, sans-serif" font-size="24" text-anchor="middle" xml:space="preserve">Goya <tspan font-weight="bold">3 &lt; 4</tspan></text>
  <circle cx="600" cy="400" r="20" fill="red"/>
</svg>
`
	got, err := svgsafe.Sanitize([]byte(in))
	if err != nil {
		t.Fatalf("Sanitize: %v", err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("Sanitize (-want +got):\n%s", diff)
	}
	wellFormed(t, got)
}

// TestDropsWhatRunsOrLoads feeds the payloads that make an SVG run script or load something from
// elsewhere, and checks exactly what is left.
func TestDropsWhatRunsOrLoads(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, want string
	}{
		{"ScriptElement", `<script>alert(1)</script><rect width="1"/>`, `<rect width="1"/>`},
		{"ScriptWithCDATA", `<script><![CDATA[alert(1)]]></script>`, ``},
		{"ScriptWithHref", `<script href="https://evil.test/x.js"/>`, ``},
		{"PrefixedScript", `<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>`, ``},
		{"UndeclaredPrefixScript", `<svg:script>alert(1)</svg:script>`, ``},
		{"XHTMLScript", `<script xmlns="http://www.w3.org/1999/xhtml">alert(1)</script>`, ``},
		{"UpperCaseScript", `<SCRIPT>alert(1)</SCRIPT><Script>alert(2)</Script>`, ``},
		{"MixedCaseForeignObject", `<FOREIGNOBJECT><body onload="alert(1)"/></FOREIGNOBJECT>`, ``},
		{"OnLoad", `<rect onload="alert(1)" width="1"/>`, `<rect width="1"/>`},
		{"OnEvents", `<g onclick="a()" onmouseover="b()" OnFocus="c()" onbegin="d()"><circle r="1" onerror="e()"/></g>`,
			`<g><circle r="1"/></g>`},
		{"ForeignObject", `<foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:alert(1)"></iframe></foreignObject>`, ``},
		{"ForeignObjectText", `<foreignObject>text <b>bold</b></foreignObject><g/>`, `<g/>`},
		{"XlinkJavascript", `<use xlink:href="javascript:alert(1)"/>`, `<use/>`},
		{"HrefJavascript", `<use href=" JaVaScRiPt:alert(1)"/>`, `<use/>`},
		{"AnchorJavascript", `<a xlink:href="javascript:alert(1)"><text>click</text></a>`, `<text>click</text>`},
		{"UseExternal", `<use href="http://evil.test/sprite.svg#icon"/>`, `<use/>`},
		{"UseExternalXlink", `<use xlink:href="//evil.test/sprite.svg#icon"/>`, `<use/>`},
		{"UseDataSVG", `<use href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=#x"/>`, `<use/>`},
		{"ImageExternal", `<image href="https://evil.test/track.png" width="1"/>`, `<image width="1"/>`},
		{"ImageDataSVG", `<image href="data:image/svg+xml,&lt;svg onload='alert(1)'/&gt;"/>`, `<image/>`},
		{"ImageDataJPEG", `<image href="data:image/jpeg;base64,/9j/4AAQ"/>`, `<image href="data:image/jpeg;base64,/9j/4AAQ"/>`},
		{"RectHref", `<rect href="#x"/>`, `<rect/>`},
		{"AttributeJavascript", `<rect fill="javascript:alert(1)" width="1"/>`, `<rect width="1"/>`},
		{"FillExternalURL", `<rect fill="url(http://evil.test/p.svg#g)" stroke="url(#ok)"/>`, `<rect stroke="url(#ok)"/>`},
		{"FilterExternalURL", `<g filter="url( 'https://evil.test/f.svg#f' )" clip-path="url(#c)"/>`, `<g clip-path="url(#c)"/>`},
		{"UnclosedURL", `<rect fill="url(http://evil.test/" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeURL", `<rect style="fill:red;background:url(https://evil.test/x.png)" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeEscapes", `<rect style="fill:u\72l(https://evil.test/)" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeExpression", `<rect style="width:expression(alert(1))"/>`, `<rect/>`},
		{"StyleElementURL", `<style>rect{fill:url(https://evil.test/x)}</style><rect/>`, `<rect/>`},
		{"StyleElementImport", `<style>@import url(https://evil.test/x.css);</style><rect/>`, `<rect/>`},
		{"StyleElementImportString", `<style>@import 'https://evil.test/x.css';</style>`, ``},
		{"StyleElementFontFace", `<style>@font-face{font-family:x;src:local(x)}</style>`, ``},
		{"StyleElementImageSet", `<style>rect{fill:image-set("https://evil.test/x.png" 1x)}</style>`, ``},
		{"StyleElementCDATA", `<style><![CDATA[rect{fill:red}]]></style>`, `<style>rect{fill:red}</style>`},
		{"StyleElementCDATAImport", `<style><![CDATA[@import url(https://evil.test/x.css);]]></style>`, ``},
		{"StyleElementChildren", `<style>rect{fill:red}<script>alert(1)</script></style>`, `<style>rect{fill:red}</style>`},
		{"CDATAMarkup", `<text><![CDATA[<script>alert(1)</script>]]></text>`, `<text>&lt;script&gt;alert(1)&lt;/script&gt;</text>`},
		{"Animation", `<a><set attributeName="href" to="javascript:alert(1)"/><animate attributeName="href" values="javascript:alert(1)"/><text>x</text></a>`,
			`<text>x</text>`},
		{"XMLStylesheet", `<?xml-stylesheet href="https://evil.test/x.css"?><rect/>`, `<rect/>`},
		{"XMLBase", `<g xml:base="https://evil.test/"><use href="#a"/></g>`, `<g><use href="#a"/></g>`},
		{"Iframe", `<iframe src="https://evil.test/"/><embed src="x"/><object data="x"/>`, ``},
		{"FeImage", `<filter id="f"><feImage href="https://evil.test/x.png"/><feGaussianBlur stdDeviation="2"/></filter>`,
			`<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>`},
		{"NamespaceDeclarations", `<g xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="click"/>`, `<g/>`},
		{"DuplicateAttributes", `<rect href="#a" xlink:href="#b" width="1" width="2"/>`, `<rect width="1"/>`},
		{"QuotesInValues", `<text font-family='"Open Sans"'>a</text>`, `<text font-family="&quot;Open Sans&quot;">a</text>`},
		// A data: URL is kept only on <image>, and only for PNG and JPEG: every other element with an href
		// loses it, whatever the image inside.
		{"UseDataPNG", `<use href="data:image/png;base64,iVBORw0KGgo=" x="1"/>`, `<use x="1"/>`},
		{"UseDataJPEGXlink", `<use xlink:href="data:image/jpeg;base64,/9j/4AAQ"/>`, `<use/>`},
		{"AnchorDataPNG", `<a href="data:image/png;base64,iVBORw0KGgo="><rect width="1"/></a>`, `<rect width="1"/>`},
		{"PatternDataPNG", `<pattern id="p" href="data:image/png;base64,iVBORw0KGgo="/>`, `<pattern id="p"/>`},
		{"LinearGradientDataPNG", `<linearGradient id="g" xlink:href="data:image/png;base64,iVBORw0KGgo="/>`, `<linearGradient id="g"/>`},
		{"RadialGradientDataJPEG", `<radialGradient id="g" href="data:image/jpeg;base64,/9j/4AAQ"/>`, `<radialGradient id="g"/>`},
		{"TextPathDataPNG", `<text><textPath href="data:image/png;base64,iVBORw0KGgo=">a</textPath></text>`, `<text><textPath>a</textPath></text>`},
		{"FilterDataPNG", `<filter id="f" xlink:href="data:image/png;base64,iVBORw0KGgo="/>`, `<filter id="f"/>`},
		{"RectDataPNG", `<rect href="data:image/png;base64,iVBORw0KGgo=" width="1"/>`, `<rect width="1"/>`},
		// A url() whose quotes do not pair up is not read as a #fragment, in an attribute, a style attribute
		// or a style sheet.
		{"URLOpenQuote", `<rect fill="url('#a)" stroke="url(#b)"/>`, `<rect stroke="url(#b)"/>`},
		{"URLCloseQuote", `<rect fill="url(#a')" width="1"/>`, `<rect width="1"/>`},
		{"URLMixedQuotes", `<rect fill="url('#a&quot;)" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeURLOpenQuote", `<rect style="fill:url(&quot;#a)" width="1"/>`, `<rect width="1"/>`},
		{"StyleElementURLOpenQuote", `<style>rect{fill:url('#a)}</style><rect/>`, `<rect/>`},
		// A reference must be a fragment and nothing after it; an image's data: URL must be all of the href.
		{"UseFragmentThenURL", `<use href="#a https://evil.test/x.svg#b"/>`, `<use/>`},
		{"FillFragmentThenURL", `<rect fill="url(#a https://evil.test/f.svg#f)" width="1"/>`, `<rect width="1"/>`},
		{"ImageURLEndingInData", `<image href="https://evil.test/t.png?data:image/png;base64,AAAA" width="1"/>`, `<image width="1"/>`},
		{"ImageJavascriptEndingInData", `<image href="javascript:alert(1)//data:image/png;base64,AAAA"/>`, `<image/>`},
		// Every piece of unsafeCSS, in any case and with white space inside.
		{"AttributeVBScript", `<rect fill="vbscript:msgbox(1)" width="1"/>`, `<rect width="1"/>`},
		{"AttributeMixedCase", `<rect fill="JavaScript:alert(1)" style="width:Expression(alert(1))" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeExpressionSpaced", `<rect style="width:expression (alert(1))" width="1"/>`, `<rect width="1"/>`},
		{"StyleAttributeBehavior", `<rect style="behavior:url(#a)" width="1"/>`, `<rect width="1"/>`},
		{"StyleElementMozBinding", `<style>rect{-moz-binding:url(#a)}</style><rect/>`, `<rect/>`},
		{"AttributeSrcFunction", `<rect fill="src(&quot;https://evil.test/x&quot;)" width="1"/>`, `<rect width="1"/>`},
		{"StyleElementMarkup", `<style>rect{}&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;</style><rect/>`, `<rect/>`},
		{"URLBalancedQuotes", `<rect fill="url('#a')" stroke='url("#b")'/>`, `<rect fill="url('#a')" stroke="url(&quot;#b&quot;)"/>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := svgsafe.Sanitize([]byte(doc(tc.in)))
			if err != nil {
				t.Fatalf("Sanitize: %v", err)
			}
			if diff := cmp.Diff(sanitized(tc.want), string(got)); diff != "" {
				t.Errorf("Sanitize (-want +got):\n%s", diff)
			}
			wellFormed(t, got)
		})
	}
}

// TestRefuses checks the documents that are refused whole, each with a reason an uploader can act on.
func TestRefuses(t *testing.T) {
	t.Parallel()
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>` +
		`<svg xmlns="http://www.w3.org/2000/svg"><text>&lol2;</text></svg>`
	for _, tc := range []struct {
		name, in, reason string
	}{
		{"BillionLaughs", laughs, "document type declarations"},
		{"ExternalEntity", `<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>`,
			"document type declarations"},
		{"Doctype", `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg xmlns="http://www.w3.org/2000/svg"/>`,
			"document type declarations"},
		{"UndeclaredEntity", `<svg xmlns="http://www.w3.org/2000/svg"><text>&lol;</text></svg>`, "not a well-formed SVG document"},
		{"NotXML", `<svg><rect></svg>`, "not a well-formed SVG document"},
		{"HTMLRoot", `<html><body><svg/></body></html>`, "the root element is <html>, not <svg>"},
		{"XHTMLNamedSVG", `<svg xmlns="http://www.w3.org/1999/xhtml"/>`, "not <svg>"},
		{"Empty", ``, "no <svg> element"},
		{"TwoRoots", `<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>`, "more than one root element"},
		{"OtherEncoding", `<?xml version="1.0" encoding="ISO-8859-1"?><svg xmlns="http://www.w3.org/2000/svg"/>`, "UTF-8"},
		{"TooDeep", `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g>", svgsafe.MaxDepth) + strings.Repeat("</g>", svgsafe.MaxDepth) + `</svg>`,
			"nested more than 64 deep"},
		{"TooManyElements", `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g/>", svgsafe.MaxElements) + `</svg>`,
			"more than 200000 elements"},
		{"TooManyAttributes", doc(manyAttributes(svgsafe.MaxAttributes + 1)), "an element with more than 256 attributes"},
		{"TooManyAttributesOnRoot", `<svg xmlns="http://www.w3.org/2000/svg"` + attributes(svgsafe.MaxAttributes) + `/>`,
			"an element with more than 256 attributes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := svgsafe.Sanitize([]byte(tc.in))
			var refusal *svgsafe.Error
			if !errors.As(err, &refusal) {
				t.Fatalf("Sanitize = %q, %v; want a refusal", out, err)
			}
			if !strings.Contains(refusal.Reason, tc.reason) {
				t.Errorf("reason = %q, want it to say %q", refusal.Reason, tc.reason)
			}
		})
	}
}

// TestDepthLimitIsInclusive checks that a document exactly MaxDepth deep is accepted.
func TestDepthLimitIsInclusive(t *testing.T) {
	t.Parallel()
	n := svgsafe.MaxDepth - 1
	in := doc(strings.Repeat("<g>", n) + strings.Repeat("</g>", n))
	if _, err := svgsafe.Sanitize([]byte(in)); err != nil {
		t.Errorf("Sanitize of a document %d deep: %v", svgsafe.MaxDepth, err)
	}
}

// TestElementLimitIsInclusive checks that a document of exactly MaxElements elements is accepted whole.
func TestElementLimitIsInclusive(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("<g/>", svgsafe.MaxElements-1) // and the root
	got, err := svgsafe.Sanitize([]byte(doc(body)))
	if err != nil {
		t.Fatalf("Sanitize of %d elements: %v", svgsafe.MaxElements, err)
	}
	if got, want := string(got), sanitized(body); got != want {
		t.Errorf("Sanitize wrote %d bytes, want the %d of the document as sent", len(got), len(want))
	}
}

// TestAttributeLimitIsInclusive checks that an element with exactly MaxAttributes attributes is
// accepted, and written with those of them that are kept.
func TestAttributeLimitIsInclusive(t *testing.T) {
	t.Parallel()
	got, err := svgsafe.Sanitize([]byte(doc(manyAttributes(svgsafe.MaxAttributes))))
	if err != nil {
		t.Fatalf("Sanitize of an element with %d attributes: %v", svgsafe.MaxAttributes, err)
	}
	if diff := cmp.Diff(sanitized(`<rect width="1"/>`), string(got)); diff != "" {
		t.Errorf("Sanitize (-want +got):\n%s", diff)
	}
}

// manyAttributes is a <rect> with n attributes: width, and n-1 that are not on the allow list.
func manyAttributes(n int) string { return `<rect width="1"` + attributes(n-1) + `/>` }

// attributes is n distinct attributes that are not on the allow list, each after a space.
func attributes(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, ` data-n%d="%d"`, i, i)
	}
	return b.String()
}

// wellFormed fails the test if out is not a well-formed XML document with an <svg> root.
func wellFormed(t *testing.T, out []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(out))
	d.Strict = true
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("output is not well-formed: %v\n%s", err, out)
		}
	}
}

// FuzzSanitize checks that whatever comes in, what comes out is well-formed, holds no script or event
// handler, no href but a #fragment (or, on <image>, a PNG or JPEG data: URL), and no url() whose quotes
// do not pair up; that an input with an element of more than MaxAttributes attributes is refused; and that
// the output is left unchanged by a second pass.
func FuzzSanitize(f *testing.F) {
	f.Add(doc(`<rect onload="x" fill="url(#a)"/><script>x</script>`))
	f.Add(doc(`<a><text>t</text></a><style>a{}</style>`))
	f.Add(doc(`<use href="data:image/png;base64,iVBORw0KGgo="/><pattern xlink:href="data:image/jpeg;base64,/9j/"/>`))
	f.Add(doc(`<rect fill="url('#a)" stroke='url(#a")' style="fill:url(&quot;#a)"/><style>a{fill:url('#a)}</style>`))
	f.Add(doc(manyAttributes(svgsafe.MaxAttributes + 1)))
	f.Fuzz(func(t *testing.T, in string) {
		out, err := svgsafe.Sanitize([]byte(in))
		if err != nil {
			return
		}
		wellFormed(t, out)
		if n := mostAttributes(t, []byte(in)); n > svgsafe.MaxAttributes {
			t.Fatalf("an element with %d attributes is accepted:\n%s", n, out)
		}
		d := xml.NewDecoder(bytes.NewReader(out))
		inStyle := false
		for {
			tok, err := d.Token()
			if err != nil {
				break
			}
			switch e := tok.(type) {
			case xml.StartElement:
				inStyle = e.Name.Local == "style"
				if n := strings.ToLower(e.Name.Local); n == "script" || n == "foreignobject" {
					t.Fatalf("output holds <%s>:\n%s", e.Name.Local, out)
				}
				if len(e.Attr) > svgsafe.MaxAttributes {
					t.Fatalf("output holds <%s> with %d attributes", e.Name.Local, len(e.Attr))
				}
				for _, a := range e.Attr {
					if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") || strings.Contains(strings.ToLower(a.Value), "javascript:") {
						t.Fatalf("output holds %s=%q:\n%s", a.Name.Local, a.Value, out)
					}
					if a.Name.Local == "href" && !keptHref(e.Name.Local, a.Value) {
						t.Fatalf("output holds <%s %s=%q>:\n%s", e.Name.Local, a.Name.Local, a.Value, out)
					}
					if !pairedURLQuotes(a.Value) {
						t.Fatalf("output holds %s=%q, a url() whose quotes do not pair up:\n%s", a.Name.Local, a.Value, out)
					}
				}
			case xml.EndElement:
				inStyle = false
			case xml.CharData:
				if inStyle && !pairedURLQuotes(string(e)) {
					t.Fatalf("output holds a style sheet with a url() whose quotes do not pair up:\n%s", out)
				}
			}
		}
		again, err := svgsafe.Sanitize(out)
		if err != nil {
			t.Fatalf("second pass refused its own output: %v\n%s", err, out)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("second pass changed the output:\n%s\n%s", out, again)
		}
	})
}

// mostAttributes returns the largest number of attributes of one element of a well-formed document.
func mostAttributes(t *testing.T, doc []byte) int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	most := 0
	for {
		tok, err := d.Token()
		if err != nil {
			return most
		}
		if e, ok := tok.(xml.StartElement); ok {
			most = max(most, len(e.Attr))
		}
	}
}

// keptHref reports whether an href of the element is one the sanitizer may write: a #fragment, or on
// <image> a PNG or JPEG data: URL.
func keptHref(elem, v string) bool {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "#") {
		return true
	}
	return elem == "image" && (strings.HasPrefix(v, "data:image/png;base64,") || strings.HasPrefix(v, "data:image/jpeg;base64,"))
}

// pairedURLQuotes reports whether every url( in v is closed, and either unquoted or quoted by a pair of
// the same quote, with no other quote inside.
func pairedURLQuotes(v string) bool {
	rest := strings.ToLower(v)
	for {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return true
		}
		rest = rest[i+len("url("):]
		j := strings.IndexByte(rest, ')')
		if j < 0 {
			return false
		}
		inner := strings.TrimSpace(rest[:j])
		if inner != "" && (inner[0] == '\'' || inner[0] == '"') {
			if len(inner) < 2 || inner[len(inner)-1] != inner[0] {
				return false
			}
			inner = inner[1 : len(inner)-1]
		}
		if strings.ContainsAny(inner, `'"`) {
			return false
		}
		rest = rest[j:]
	}
}
