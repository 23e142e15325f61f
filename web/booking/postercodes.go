package booking

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workspacebooking/booking/queries"
)

// posterResource returns the organization's resource with the given poster code, ignoring case, or nil
// if there is none. The resource may or may not be bookable. It comes from the cached layout when
// possible.
func (s *Service) posterResource(ctx context.Context, org uuid.UUID, code string) (*Resource, error) {
	if !PosterCodeValid(code) {
		return nil, nil
	}
	l, err := s.organizationLayout(ctx, org)
	if err != nil {
		return nil, err
	}
	return l.byPoster[posterKey(code)], nil
}

// MaxPosterCodeLength is the longest allowed poster code, in characters.
const MaxPosterCodeLength = 64

// PosterCodeValid reports whether code is a well-formed poster code: 1 to MaxPosterCodeLength ASCII
// letters, digits, '.', '_' and '-'. These are the characters the kiosk keyboard offers, and their case
// folds the same way in Go and in the database, whatever its locale. No resource has a code outside this
// set.
func PosterCodeValid(code string) bool {
	if len(code) == 0 || len(code) > MaxPosterCodeLength {
		return false
	}
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}

// posterKey returns the key to look up a poster code by. Poster codes ignore case, as the database's
// unique index on lower(poster_code) does.
func posterKey(code string) string { return strings.ToLower(code) }

// ExamplePosterCode returns one of the organization's poster codes for hints ("for example MAD-1-R02"):
// the alphabetically first code of a bookable resource, or "" if there is none.
func (s *Service) ExamplePosterCode(ctx context.Context, actor User) (string, error) {
	l, err := s.organizationLayout(ctx, actor.OrganizationID)
	if err != nil {
		return "", err
	}
	example := ""
	for _, r := range l.byID {
		if r.Bookable() && r.PosterCode != "" && (example == "" || r.PosterCode < example) {
			example = r.PosterCode
		}
	}
	return example, nil
}

// resourceByPosterCode returns the resource with the given poster code, bookable or not, with its floor,
// building, subcategory and rule.
// Codes: 1002 no resource with that poster code in the organization.
func (s *Service) resourceByPosterCode(ctx context.Context, org uuid.UUID, posterCode string) (Resource, error) {
	if !utf8.ValidString(posterCode) || strings.ContainsRune(posterCode, 0) {
		return Resource{}, errUnstorableText // as the database would have said
	}
	if !PosterCodeValid(posterCode) {
		return Resource{}, Refuse(CodeResourceNotFound, "refusal.booking.noPosterCode", map[string]any{"Code": strconv.Quote(posterCode)})
	}
	row, err := s.q.ResourceGetByPosterCode(ctx, queries.ResourceGetByPosterCodeParams{OrganizationID: org, PosterCode: posterCode})
	if errors.Is(err, pgx.ErrNoRows) {
		return Resource{}, Refuse(CodeResourceNotFound, "refusal.booking.noPosterCode", map[string]any{"Code": strconv.Quote(posterCode)})
	}
	if err != nil {
		return Resource{}, fmt.Errorf("get resource by poster code: %w", err)
	}
	return fullResource(row.Resource, row.Floor, row.Building, row.Subcategory, row.ResourceRule), nil
}
