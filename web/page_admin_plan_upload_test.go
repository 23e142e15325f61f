package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The plan upload of the admin floor page, and the coordinate system the uploaded plan gives the
// employees' floor plan and the admins' plan editor.

// uploadPlan posts a file to the floor page's upload form as a browser does: the part's Content-Type
// is the one the browser takes from the file's name.
func (b *browser) uploadPlan(floor uuid.UUID, filename, contentType string, data []byte) htmlPage {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="plan"; filename="`+filename+`"`)
	h.Set("Content-Type", contentType)
	part, err := mw.CreatePart(h)
	if err != nil {
		b.t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		b.t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		b.t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(b.t.Context(), http.MethodPost, b.base+"/admin/floors/"+floor.String()+"/plan/image", &body)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return b.send(req)
}

// floorImage is the Madrid floor's image address as the admin domain reads it.
func floorImage(t *testing.T, pb *pageBundle) string {
	t.Helper()
	f, _ := adminGetJSON[layout.LayoutFloor](t, pb, "floors", fx.FloorMadrid)
	return f.Image
}

// TestAdminPlanUploadDrawsAlike uploads plans of each kind and checks that the floor page, the
// employees' floor plan and the plan editor all show the new plan, the last two in the plan's own size.
func TestAdminPlanUploadDrawsAlike(t *testing.T) {
	t.Parallel()
	svg := func(attrs string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" ` + attrs + `><rect width="10" height="10"/></svg>`)
	}
	for _, tc := range []struct {
		name, filename, contentType string
		data                        func(t *testing.T) []byte
		viewBox                     string
	}{
		{"SVGViewBox", "plan.svg", "image/svg+xml", func(*testing.T) []byte { return svg(`width="800" height="450" viewBox="0 0 1600 900"`) }, "0 0 1600 900"},
		{"SVGOffsetViewBox", "plan.svg", "image/svg+xml", func(*testing.T) []byte { return svg(`viewBox="-50 20, 640.4 480.6"`) }, "0 0 640 481"},
		{"SVGWidthHeight", "plan.svg", "image/svg+xml", func(*testing.T) []byte { return svg(`width="297mm" height="210mm"`) }, "0 0 1123 794"},
		{"SVGNoSize", "plan.svg", "image/svg+xml", func(*testing.T) []byte { return svg(`width="100%" height="100%"`) }, "0 0 1200 800"},
		{"PNG", "plan.png", "image/png", func(t *testing.T) []byte { return pngImage(t, 1500, 700) }, "0 0 1500 700"},
		{"JPEG", "plan.jpeg", "image/jpeg", func(t *testing.T) []byte { return jpegImage(t, 900, 1300) }, "0 0 900 1300"},
		// A browser that does not know the type sends the file as octet-stream; its name says it.
		{"TypeFromName", "PLAN.JPG", "application/octet-stream", func(t *testing.T) []byte { return jpegImage(t, 300, 200) }, "0 0 300 200"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pb := setupPages(t)
			b := pb.signedIn(t, fx.Adam)
			p := b.uploadPlan(fx.FloorMadrid, tc.filename, tc.contentType, tc.data(t))
			p.wantStatus(t, http.StatusOK)
			if got, want := p.url.Path, "/admin/floors/"+fx.FloorMadrid.String(); got != want {
				t.Errorf("after the upload the browser is at %s, want %s", got, want)
			}
			p.wantText(t, "main", "Plan uploaded. People see the new plan from now on.")
			image := floorImage(t, pb)
			if !planAddress.MatchString(image) {
				t.Fatalf("floor image = %q, want an uploaded plan's address", image)
			}
			if got := p.attr("img.floor-thumb", "src"); got != image {
				t.Errorf("floor page shows %q, want %q", got, image)
			}

			find := pb.signedIn(t, fx.Alice).get(planPath())
			find.wantStatus(t, http.StatusOK)
			editor := b.get("/admin/floors/" + fx.FloorMadrid.String() + "/plan")
			editor.wantStatus(t, http.StatusOK)
			for _, v := range []struct {
				name string
				page htmlPage
				svg  string
			}{{"/find/plan", find, "svg.plan"}, {"plan editor", editor, "svg.plan.editing"}} {
				if got := v.page.attr(v.svg+" image", "href"); got != image {
					t.Errorf("%s draws the image %q, want %q", v.name, got, image)
				}
				if got := v.page.attr(v.svg, "viewBox"); got != tc.viewBox {
					t.Errorf("%s viewBox = %q, want the plan's %q", v.name, got, tc.viewBox)
				}
				if got, want := v.page.attr(v.svg+" image", "width")+"×"+v.page.attr(v.svg+" image", "height"),
					strings.ReplaceAll(strings.TrimPrefix(tc.viewBox, "0 0 "), " ", "×"); got != want {
					t.Errorf("%s image size = %s, want %s", v.name, got, want)
				}
			}
		})
	}
}

// TestAdminPlanUploadRefusals checks that a refused upload is said in words beside the upload form,
// with the status of its code, and leaves the floor's plan as it was.
func TestAdminPlanUploadRefusals(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	before := floorImage(t, pb)
	big := append([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><!--`), bytes.Repeat([]byte("x"), 5<<20)...)
	big = append(big, []byte(`--></svg>`)...)
	for _, tc := range []struct {
		name, filename, contentType string
		data                        []byte
		status                      int
		says                        []string
	}{
		{"TooLarge", "plan.svg", "image/svg+xml", big, http.StatusRequestEntityTooLarge,
			[]string{"Larger than 5242880 bytes (5 MiB); make the image smaller and send it again."}},
		{"TooLargeRequest", "plan.svg", "image/svg+xml", append(big, bytes.Repeat([]byte(" "), 1<<20)...), http.StatusRequestEntityTooLarge,
			[]string{"5 MiB"}},
		{"PNGNamedJPEG", "plan.jpg", "image/jpeg", pngImage(t, 40, 30), http.StatusBadRequest,
			[]string{"This file is a PNG image but its name says JPEG: rename it to end in .png and upload it again."}},
		{"JPEGNamedPNG", "plan.png", "image/png", jpegImage(t, 40, 30), http.StatusBadRequest,
			[]string{"This file is a JPEG image but its name says PNG: rename it to end in .jpe"}},
		{"NotAnImage", "plan.pdf", "application/pdf", []byte("%PDF-1.7 not a plan"), http.StatusBadRequest,
			[]string{"The plan must be an SVG, PNG or JPEG image; this file is none of them."}},
		{"SanitizerRefusal", "plan.svg", "image/svg+xml", []byte(`<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>`),
			http.StatusBadRequest, []string{"The SVG is refused:", "document type declarations"}},
		{"SVGTooWide", "plan.svg", "image/svg+xml", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200000 10"/>`),
			http.StatusBadRequest, []string{"The SVG is 200000×10 units; each side must be at most 100000."}},
		{"Empty", "plan.svg", "image/svg+xml", nil, http.StatusBadRequest, []string{"The file is empty."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.uploadPlan(fx.FloorMadrid, tc.filename, tc.contentType, tc.data)
			p.wantStatus(t, tc.status)
			p.wantText(t, "form#upload .notice.error", append([]string{"The plan was not uploaded"}, tc.says...)...)
			if got := floorImage(t, pb); got != before {
				t.Errorf("after the refusal the floor's image is %q, want it unchanged, %q", got, before)
			}
			if got := p.attr("img.floor-thumb", "src"); got != before {
				t.Errorf("the page shows the plan %q, want the unchanged %q", got, before)
			}
		})
	}
}
