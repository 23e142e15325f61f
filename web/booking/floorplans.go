package booking

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers JPEG with image.DecodeConfig
	_ "image/png"  // registers PNG with image.DecodeConfig
	"math"
	"mime"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/svgsafe"
)

// MaxPlanBytes bounds a floor plan, as uploaded and as stored (5 MiB).
const MaxPlanBytes = 5 << 20

// MaxPlanSide bounds each side of a PNG or JPEG floor plan, in pixels.
const MaxPlanSide = 20_000

// MaxPlanUnits bounds each side of a floor plan's coordinate system, and so every place on it.
const MaxPlanUnits = 100_000

// DefaultPlanWidth and DefaultPlanHeight are the size of an SVG plan that says nothing of its own.
const DefaultPlanWidth, DefaultPlanHeight = 1200, 800

// PlanPathPrefix starts the address of every floor plan: /plans/{floorId}/{hash}.{svg|png|jpg}.
const PlanPathPrefix = "/plans/"

// PlanContentTypes are the media types a floor plan may have.
var PlanContentTypes = []string{"image/svg+xml", "image/png", "image/jpeg"}

// planExtensions gives the extension of a plan's address for each of PlanContentTypes.
var planExtensions = map[string]string{"image/svg+xml": "svg", "image/png": "png", "image/jpeg": "jpg"}

// planHash is the form of a plan's hash: SHA-256, in lower-case hex.
var planHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Plan is a floor's current plan image as stored and served: an SVG is already sanitized. Hash is the
// SHA-256 of Data in hex, part of the plan's address, so a new plan always has a new address. Width and
// Height are the plan's coordinate system, in which its desks are placed: a PNG's or JPEG's pixels, an
// SVG's viewBox, else its width and height, else DefaultPlanWidth × DefaultPlanHeight; each is 1 to
// MaxPlanUnits.
type Plan struct {
	FloorID     uuid.UUID
	Hash        string
	ContentType string // one of PlanContentTypes
	Data        []byte
	Width       int32
	Height      int32
	UploadedAt  time.Time
}

// PlanPath returns the address a plan is served at, e.g. /plans/{floorId}/{hash}.svg.
func PlanPath(floorID uuid.UUID, hash, contentType string) string {
	return PlanPathPrefix + floorID.String() + "/" + hash + "." + planExtensions[contentType]
}

// SetFloorPlan makes data the floor's plan and points the floor's image at it, in one transaction that
// also records the change in the audit log (action PLAN, the image address before and after); the layout version moves, as with any change to a floor. An
// SVG is stored sanitized (no scripts, event attributes or external references); a PNG or JPEG is
// stored as sent, once its bytes are found to be what contentType says. Uploading the plan the floor
// already has changes nothing. It returns the floor with its new image address.
// Codes: 1001 the actor is not an admin; 1013 no such floor in the actor's organization; 2000 a type
// other than those of PlanContentTypes, an empty file, bytes that are not what the type says, an SVG the
// sanitizer refuses, an image over MaxPlanSide pixels a side, an SVG over MaxPlanUnits a side; 4130 over
// MaxPlanBytes.
func (s *Service) SetFloorPlan(ctx context.Context, actor User, floorID uuid.UUID, contentType string, data []byte) (Floor, error) {
	if actor.Role != RoleAdmin {
		return Floor{}, Refuse(CodeForbidden, "refusal.plan.forbidden")
	}
	org := actor.OrganizationID
	// The floor is looked up before the file is read, so that another organization's floor is 1013
	// whatever is sent.
	if _, err := s.q.FloorGet(ctx, queries.FloorGetParams{OrganizationID: org, ID: floorID}); err != nil {
		return Floor{}, floorNotFound(err, floorID)
	}
	plan, err := preparePlan(contentType, data)
	if err != nil {
		return Floor{}, err
	}
	plan.FloorID, plan.UploadedAt = floorID, s.now()
	path := PlanPath(floorID, plan.Hash, plan.ContentType)

	var out Floor
	err = s.changeLayout(ctx, func(q *queries.Queries) error {
		f, err := q.FloorGetForUpdate(ctx, queries.FloorGetForUpdateParams{OrganizationID: org, ID: floorID})
		if err != nil {
			return floorNotFound(err, floorID)
		}
		b, err := q.BuildingGet(ctx, queries.BuildingGetParams{OrganizationID: org, ID: f.BuildingID})
		if err != nil {
			return fmt.Errorf("get building: %w", err)
		}
		out = floorFromRow(f, b)
		out.Image = path
		if f.Image == path {
			return nil // the same bytes again: same address, nothing to write
		}
		if err := q.FloorPlanPut(ctx, queries.FloorPlanPutParams{
			OrganizationID: org, FloorID: floorID, Hash: plan.Hash, ContentType: plan.ContentType,
			Data: plan.Data, UploadedAt: plan.UploadedAt, UploadedBy: actor.ID, Width: &plan.Width, Height: &plan.Height,
		}); err != nil {
			return fmt.Errorf("store floor plan: %w", err)
		}
		if err := q.FloorSetImage(ctx, queries.FloorSetImageParams{OrganizationID: org, ID: floorID, Image: path}); err != nil {
			return fmt.Errorf("set floor image: %w", err)
		}
		e := AuditEntry{OrganizationID: org, Collection: "floors", ObjectID: floorID, Action: AuditPlan,
			Before: imageJSON(f.Image), After: imageJSON(path)}
		e.ActorID, e.ActorName = AuditActor(actor)
		return recordAudit(ctx, q, e)
	})
	if err != nil {
		return Floor{}, err
	}
	return out, nil
}

// FloorPlan returns the floor's plan if hash is that of its current plan, for anyone of the floor's
// organization to see.
// Codes: 1013 no such floor in the actor's organization, no plan, or hash is not the current plan's.
func (s *Service) FloorPlan(ctx context.Context, actor User, floorID uuid.UUID, hash string) (Plan, error) {
	notFound := Refuse(CodeObjectNotFound, "refusal.plan.noPlan", map[string]any{
		"Floor": floorID.String(), "Hash": strconv.Quote(hash)})
	if !planHash.MatchString(hash) {
		return Plan{}, notFound
	}
	r, err := s.q.FloorPlanGet(ctx, queries.FloorPlanGetParams{OrganizationID: actor.OrganizationID, FloorID: floorID, Hash: hash})
	if errors.Is(err, pgx.ErrNoRows) {
		return Plan{}, notFound
	}
	if err != nil {
		return Plan{}, fmt.Errorf("get floor plan: %w", err)
	}
	p := Plan{FloorID: r.FloorID, Hash: r.Hash, ContentType: r.ContentType, Data: r.Data, UploadedAt: r.UploadedAt}
	if r.Width != nil && r.Height != nil {
		p.Width, p.Height = *r.Width, *r.Height
	}
	return p, nil
}

// PlanSize returns the size of the uploaded plan at the address image (/plans/{floorId}/{hash}.{ext}),
// the coordinate system its floor is drawn in. ok is false when image is not the address of a plan of
// the actor's organization. A plan stored before sizes were kept is measured the first time.
func (s *Service) PlanSize(ctx context.Context, actor User, image string) (width, height int32, ok bool, err error) {
	rest, found := strings.CutPrefix(image, PlanPathPrefix)
	floor, file, _ := strings.Cut(rest, "/")
	hash, _, _ := strings.Cut(file, ".")
	floorID, perr := uuid.Parse(floor)
	if !found || perr != nil || !planHash.MatchString(hash) {
		return 0, 0, false, nil
	}
	r, err := s.q.FloorPlanSize(ctx, queries.FloorPlanSizeParams{OrganizationID: actor.OrganizationID, FloorID: floorID, Hash: hash})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("get floor plan size: %w", err)
	}
	if r.Width != nil && r.Height != nil {
		return *r.Width, *r.Height, true, nil
	}
	// A plan stored before sizes were kept is measured once, and its size kept from then on.
	p, err := s.q.FloorPlanGet(ctx, queries.FloorPlanGetParams{OrganizationID: actor.OrganizationID, FloorID: floorID, Hash: hash})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, fmt.Errorf("get floor plan: %w", err)
	}
	if p.ContentType == "image/svg+xml" {
		width, height, err = svgSize(p.Data)
	} else {
		width, height, err = checkRaster(p.ContentType, p.Data)
	}
	if err != nil {
		return 0, 0, false, nil // a plan the upload would refuse today has no size to draw in
	}
	if err := s.q.FloorPlanSetSize(ctx, queries.FloorPlanSetSizeParams{
		OrganizationID: actor.OrganizationID, FloorID: floorID, Hash: hash, Width: &width, Height: &height,
	}); err != nil {
		return 0, 0, false, fmt.Errorf("keep floor plan size: %w", err)
	}
	return width, height, true, nil
}

// imageJSON is a floor's image address as the audit log keeps it: {"image": "/plans/…"}.
func imageJSON(image string) json.RawMessage {
	j, _ := json.Marshal(struct {
		Image string `json:"image"`
	}{image})
	return j
}

// floorNotFound turns a failed floor lookup into 1013, or a wrapped error when it failed otherwise.
func floorNotFound(err error, floorID uuid.UUID) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return Refuse(CodeObjectNotFound, "refusal.plan.noFloor", map[string]any{"Floor": floorID.String()})
	}
	return fmt.Errorf("get floor: %w", err)
}

// preparePlan checks an uploaded plan and returns it as it is stored: its media type without
// parameters, its bytes (an SVG sanitized), their hash and the plan's size.
// Codes: 2000 and 4130, as SetFloorPlan says.
func preparePlan(contentType string, data []byte) (Plan, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if _, ok := planExtensions[mt]; err != nil || !ok {
		return Plan{}, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.typeRefused", map[string]any{
			"Type": strconv.Quote(contentType), "Accepted": strings.Join(PlanContentTypes, ", ")})
	}
	if len(data) == 0 {
		return Plan{}, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.empty")
	}
	if len(data) > MaxPlanBytes {
		return Plan{}, PlanTooLarge()
	}
	var w, h int32
	switch mt {
	case "image/svg+xml":
		clean, err := svgsafe.Sanitize(data)
		var refusal *svgsafe.Error
		if errors.As(err, &refusal) {
			return Plan{}, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.svgRefused", map[string]any{"Reason": refusal.Reason})
		}
		if err != nil {
			return Plan{}, fmt.Errorf("sanitize plan: %w", err)
		}
		if len(clean) > MaxPlanBytes {
			return Plan{}, PlanTooLarge()
		}
		data = clean
		if w, h, err = svgSize(data); err != nil {
			return Plan{}, err
		}
	default:
		if w, h, err = checkRaster(mt, data); err != nil {
			return Plan{}, err
		}
	}
	sum := sha256.Sum256(data)
	return Plan{Hash: hex.EncodeToString(sum[:]), ContentType: mt, Data: data, Width: w, Height: h}, nil
}

// checkRaster checks that data is a PNG or JPEG image, as mt says, of at most MaxPlanSide pixels a side,
// and returns its size in pixels. Only the header is decoded, so a huge image costs nothing to check.
func checkRaster(mt string, data []byte) (int32, int32, error) {
	want := strings.TrimPrefix(mt, "image/")
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.notThatFormat", map[string]any{
			"Format": strings.ToUpper(want), "Type": mt})
	}
	if format != want {
		return 0, 0, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.otherFormat", map[string]any{
			"Format": strings.ToUpper(format), "Want": strings.ToUpper(want), "Type": mt, "Subtype": format})
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxPlanSide || cfg.Height > MaxPlanSide {
		return 0, 0, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.imageSize", map[string]any{
			"Width": fmt.Sprint(cfg.Width), "Height": fmt.Sprint(cfg.Height), "Max": fmt.Sprint(MaxPlanSide)})
	}
	return int32(cfg.Width), int32(cfg.Height), nil
}

// svgSize returns the coordinate system of a sanitized SVG: the width and height of its viewBox, else
// its width and height attributes when both are lengths (px, or absolute units turned into px), else
// DefaultPlanWidth × DefaultPlanHeight. Fractions are rounded, to at least 1.
// Codes: 2000 a side over MaxPlanUnits.
func svgSize(data []byte) (int32, int32, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var root xml.StartElement
	for {
		t, err := d.Token()
		if err != nil {
			return DefaultPlanWidth, DefaultPlanHeight, nil // the sanitizer wrote it; this does not happen
		}
		if se, ok := t.(xml.StartElement); ok {
			root = se
			break
		}
	}
	attr := func(name string) string {
		for _, a := range root.Attr {
			if a.Name.Local == name && a.Name.Space == "" {
				return strings.TrimSpace(a.Value)
			}
		}
		return ""
	}
	w, h, ok := viewBoxSize(attr("viewBox"))
	if !ok {
		var okW, okH bool
		w, okW = svgLength(attr("width"))
		h, okH = svgLength(attr("height"))
		if !okW || !okH {
			return DefaultPlanWidth, DefaultPlanHeight, nil
		}
	}
	if w > MaxPlanUnits || h > MaxPlanUnits {
		return 0, 0, FieldRefuse(CodeInvalidRequest, "plan", "refusal.plan.svgSize", map[string]any{
			"Width": fmt.Sprintf("%.0f", w), "Height": fmt.Sprintf("%.0f", h), "Max": fmt.Sprint(MaxPlanUnits)})
	}
	return int32(max(math.Round(w), 1)), int32(max(math.Round(h), 1)), nil
}

// viewBoxSize reads the width and height of a viewBox "min-x min-y width height"; both must be above 0.
func viewBoxSize(v string) (float64, float64, bool) {
	f := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	if len(f) != 4 {
		return 0, 0, false
	}
	w, errW := strconv.ParseFloat(f[2], 64)
	h, errH := strconv.ParseFloat(f[3], 64)
	if errW != nil || errH != nil || !(w > 0) || !(h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return 0, 0, false
	}
	return w, h, true
}

// svgUnits are the CSS pixels of each absolute unit an SVG's width and height may be given in.
var svgUnits = map[string]float64{"": 1, "px": 1, "in": 96, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96.0 / 72, "pc": 16}

// svgLength reads an SVG width or height in px; a relative one (%, em) is not a size.
func svgLength(v string) (float64, bool) {
	i := strings.IndexFunc(v, func(r rune) bool { return !strings.ContainsRune("0123456789.+-eE", r) })
	if i < 0 {
		i = len(v)
	}
	// "1e3" is a number, but "1em" is a unit: the exponent belongs to the number only before a digit.
	for i > 0 && (v[i-1] == 'e' || v[i-1] == 'E') {
		i--
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	per, ok := svgUnits[strings.ToLower(strings.TrimSpace(v[i:]))]
	if err != nil || !ok || !(n > 0) || math.IsInf(n, 0) {
		return 0, false
	}
	return n * per, true
}

// PlanTooLarge is the refusal of a plan over MaxPlanBytes, for those that stop reading one at the limit.
func PlanTooLarge() error {
	return FieldRefuse(CodePayloadTooLarge, "plan", "refusal.plan.tooLarge", map[string]any{"Max": fmt.Sprint(MaxPlanBytes)})
}
