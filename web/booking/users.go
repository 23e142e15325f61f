package booking

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// ErrUnknownUser is returned when a verified token names no user known to the service.
var ErrUnknownUser = Refuse(CodeUnauthorized, "refusal.booking.unknownUser")

// ErrDeactivated is returned when a token or a sign-in names a person whose account is deactivated.
var ErrDeactivated = Refuse(CodeUnauthorized, "refusal.booking.deactivated")

// UserByID returns the user with the given id in the organization.
// Codes: 1000 no such user (the caller holds a token for a user who no longer exists), or the user is
// deactivated (ErrDeactivated).
func (s *Service) UserByID(ctx context.Context, orgID, id uuid.UUID) (User, error) {
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: orgID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrUnknownUser
	}
	if err != nil {
		return User{}, fmt.Errorf("get user: %w", err)
	}
	if !u.Active {
		return User{}, ErrDeactivated
	}
	return userFromRow(u), nil
}

// id, or else another user of the same organization, which only receptionists and admins may choose.
// Codes: 1001 an employee acting for someone else; 1003 no such user in the organization, or a
// deactivated one.
func (s *Service) ActingFor(ctx context.Context, actor User, target *uuid.UUID) (User, error) {
	if target == nil || *target == actor.ID {
		return actor, nil
	}
	if !actor.Role.ActsForOthers() {
		return User{}, Refuse(CodeForbidden, "refusal.booking.onlyReceptionActsForOthers")
	}
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: actor.OrganizationID, ID: *target})
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, Refuse(CodeUserNotFound, "refusal.booking.noUser", map[string]any{"ID": target.String()})
	}
	if err != nil {
		return User{}, fmt.Errorf("get target user: %w", err)
	}
	if !u.Active {
		return User{}, Refuse(CodeUserNotFound, "refusal.booking.userDeactivated", map[string]any{"Person": personName(u.Name, u.Surname)})
	}
	return userFromRow(u), nil
}

// MaxPeople is the largest number of people SearchPeople returns.
const MaxPeople = 20

// SearchPeople returns up to MaxPeople searchable people of the actor's organization, ordered by name.
// Every word of query must appear in a person's name, surname, alias or e-mail. A blank query finds
// nobody.
func (s *Service) SearchPeople(ctx context.Context, actor User, query string) ([]User, error) {
	words := strings.Fields(query)
	if len(words) == 0 {
		return nil, nil
	}
	patterns := make([]string, len(words))
	for i, w := range words {
		patterns[i] = "%" + likeEscaper.Replace(w) + "%"
	}
	rows, err := s.q.UsersSearch(ctx, queries.UsersSearchParams{
		OrganizationID: actor.OrganizationID, Patterns: patterns, MaxRows: MaxPeople,
	})
	if err != nil {
		return nil, fmt.Errorf("search people: %w", err)
	}
	us := make([]User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	return us, nil
}

// likeEscaper escapes a word so that it matches literally in a LIKE pattern.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Unknown ids are skipped.
func (s *Service) PeopleByIDs(ctx context.Context, actor User, ids []uuid.UUID) ([]User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: actor.OrganizationID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("get people: %w", err)
	}
	us := make([]User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	slices.SortFunc(us, func(a, b User) int {
		return cmp.Or(CompareNames(a.Name, b.Name), CompareNames(a.Surname, b.Surname))
	})
	return us, nil
}

// SetUserLanguage keeps the language a person chose on the pages (a code of a language the service
// speaks, which the caller checks). Codes: 1000 no such user in the organization, or a deactivated one.
func (s *Service) SetUserLanguage(ctx context.Context, orgID, id uuid.UUID, code string) error {
	n, err := s.q.UserSetLanguage(ctx, queries.UserSetLanguageParams{OrganizationID: orgID, ID: id, UserLanguage: code})
	if err != nil {
		return fmt.Errorf("set user language: %w", err)
	}
	if n == 0 {
		return ErrUnknownUser
	}
	return nil
}
