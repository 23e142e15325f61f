package booking

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // registers JPEG with image.DecodeConfig
	_ "image/png"  // registers PNG with image.DecodeConfig
	"mime"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/svgsafe"
)

// MaxPlanBytes bounds a floor plan, as uploaded and as stored (5 MiB).
const MaxPlanBytes = 5 << 20

// MaxPlanSide bounds each side of a PNG or JPEG floor plan, in pixels.
const MaxPlanSide = 20_000

// PlanPathPrefix starts the address of every floor plan: /plans/{floorId}/{hash}.{svg|png|jpg}.
const PlanPathPrefix = "/plans/"

// PlanContentTypes are the media types a floor plan may have.
var PlanContentTypes = []string{"image/svg+xml", "image/png", "image/jpeg"}

// planExtensions gives the extension of a plan's address for each of PlanContentTypes.
var planExtensions = map[string]string{"image/svg+xml": "svg", "image/png": "png", "image/jpeg": "jpg"}

// planHash is the form of a plan's hash: SHA-256, in lower-case hex.
var planHash = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Plan is a floor's current plan image as stored and served: an SVG is already sanitized. Hash is the
// SHA-256 of Data in hex, part of the plan's address, so a new plan always has a new address.
type Plan struct {
	FloorID     uuid.UUID
	Hash        string
	ContentType string // one of PlanContentTypes
	Data        []byte
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
// sanitizer refuses, an image over MaxPlanSide pixels a side; 4130 over MaxPlanBytes.
func (s *Service) SetFloorPlan(ctx context.Context, actor User, floorID uuid.UUID, contentType string, data []byte) (Floor, error) {
	if actor.Role != RoleAdmin {
		return Floor{}, Errorf(CodeForbidden, "floor plans are uploaded by admins")
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
	err = s.ChangeLayout(ctx, func(q *queries.Queries) error {
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
			Data: plan.Data, UploadedAt: plan.UploadedAt, UploadedBy: actor.ID,
		}); err != nil {
			return fmt.Errorf("store floor plan: %w", err)
		}
		if err := q.FloorSetImage(ctx, queries.FloorSetImageParams{OrganizationID: org, ID: floorID, Image: path}); err != nil {
			return fmt.Errorf("set floor image: %w", err)
		}
		e := AuditEntry{OrganizationID: org, Collection: "floors", ObjectID: floorID, Action: AuditPlan,
			Before: imageJSON(f.Image), After: imageJSON(path)}
		e.ActorID, e.ActorName = AuditActor(actor)
		return RecordAudit(ctx, q, e)
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
	notFound := Errorf(CodeObjectNotFound, "floor %s has no plan %q", floorID, hash)
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
	return Plan{FloorID: r.FloorID, Hash: r.Hash, ContentType: r.ContentType, Data: r.Data, UploadedAt: r.UploadedAt}, nil
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
		return Errorf(CodeObjectNotFound, "no floor %s in your organization", floorID)
	}
	return fmt.Errorf("get floor: %w", err)
}

// preparePlan checks an uploaded plan and returns it as it is stored: its media type without
// parameters, its bytes (an SVG sanitized) and their hash.
// Codes: 2000 and 4130, as SetFloorPlan says.
func preparePlan(contentType string, data []byte) (Plan, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if _, ok := planExtensions[mt]; err != nil || !ok {
		return Plan{}, Errorf(CodeInvalidRequest, "plan: Content-Type %q is not accepted; send %s",
			contentType, strings.Join(PlanContentTypes, ", "))
	}
	if len(data) == 0 {
		return Plan{}, Errorf(CodeInvalidRequest, "plan: the file is empty")
	}
	if len(data) > MaxPlanBytes {
		return Plan{}, PlanTooLarge()
	}
	switch mt {
	case "image/svg+xml":
		clean, err := svgsafe.Sanitize(data)
		var refusal *svgsafe.Error
		if errors.As(err, &refusal) {
			return Plan{}, Errorf(CodeInvalidRequest, "plan: the SVG is refused: %s", refusal.Reason)
		}
		if err != nil {
			return Plan{}, fmt.Errorf("sanitize plan: %w", err)
		}
		if len(clean) > MaxPlanBytes {
			return Plan{}, PlanTooLarge()
		}
		data = clean
	default:
		if err := checkRaster(mt, data); err != nil {
			return Plan{}, err
		}
	}
	sum := sha256.Sum256(data)
	return Plan{Hash: hex.EncodeToString(sum[:]), ContentType: mt, Data: data}, nil
}

// checkRaster checks that data is a PNG or JPEG image, as mt says, of at most MaxPlanSide pixels a side.
// Only the header is decoded, so a huge image costs nothing to check.
func checkRaster(mt string, data []byte) error {
	want := strings.TrimPrefix(mt, "image/")
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Errorf(CodeInvalidRequest, "plan: the file is not a %s image, as its Content-Type %s says", strings.ToUpper(want), mt)
	}
	if format != want {
		return Errorf(CodeInvalidRequest, "plan: the file is a %s image, not %s as its Content-Type %s says; send it as image/%s",
			strings.ToUpper(format), strings.ToUpper(want), mt, format)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxPlanSide || cfg.Height > MaxPlanSide {
		return Errorf(CodeInvalidRequest, "plan: the image is %d×%d pixels; each side must be 1 to %d", cfg.Width, cfg.Height, MaxPlanSide)
	}
	return nil
}

// PlanTooLarge is the refusal of a plan over MaxPlanBytes, for those that stop reading one at the limit.
func PlanTooLarge() error {
	return Errorf(CodePayloadTooLarge, "plan: larger than %d bytes (5 MiB); make the image smaller and send it again", MaxPlanBytes)
}
