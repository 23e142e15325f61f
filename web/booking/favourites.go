package booking

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// MaxFavourites bounds the resources, and the colleagues, one person may star.
const MaxFavourites = 100

// Favourites are what a person starred: resources and colleagues, in the order they were starred.
type Favourites struct {
	Resources []uuid.UUID
	People    []uuid.UUID
}

// Has tells whether id is among the starred resources or colleagues.
func (f Favourites) Has(id uuid.UUID) bool {
	for _, ids := range [][]uuid.UUID{f.Resources, f.People} {
		for _, x := range ids {
			if x == id {
				return true
			}
		}
	}
	return false
}

// FavouritesOf returns what u starred.
func (s *Service) FavouritesOf(ctx context.Context, u User) (Favourites, error) {
	org := u.OrganizationID
	res, err := s.q.FavouriteResources(ctx, queries.FavouriteResourcesParams{OrganizationID: org, UserID: u.ID})
	if err != nil {
		return Favourites{}, fmt.Errorf("starred resources: %w", err)
	}
	people, err := s.q.FavouritePeople(ctx, queries.FavouritePeopleParams{OrganizationID: org, UserID: u.ID})
	if err != nil {
		return Favourites{}, fmt.Errorf("starred colleagues: %w", err)
	}
	return Favourites{Resources: res, People: people}, nil
}

// StarResource stars (on) or unstars a bookable resource for u. Starring twice changes nothing.
// Codes: 1002 no such resource visible to u; 2000 u has MaxFavourites starred already.
func (s *Service) StarResource(ctx context.Context, u User, id uuid.UUID, on bool) error {
	org := u.OrganizationID
	if !on {
		_, err := s.q.FavouriteResourceRemove(ctx, queries.FavouriteResourceRemoveParams{OrganizationID: org, UserID: u.ID, ResourceID: id})
		return wrapErr("unstar a resource", err)
	}
	if _, err := bookableResource(ctx, s.q, org, id); err != nil {
		return err
	}
	n, err := s.q.FavouriteResourceAdd(ctx, queries.FavouriteResourceAddParams{
		OrganizationID: org, UserID: u.ID, ResourceID: id, MaxCount: MaxFavourites,
	})
	if err != nil {
		return fmt.Errorf("star a resource: %w", err)
	}
	if n == 0 {
		return s.refuseFullStars(ctx, u, id)
	}
	return nil
}

// StarPerson stars (on) or unstars a colleague for u. Starring twice changes nothing.
// Codes: 1003 no such person in u's organization; 2000 u themselves, or MaxFavourites starred.
func (s *Service) StarPerson(ctx context.Context, u User, id uuid.UUID, on bool) error {
	org := u.OrganizationID
	if !on {
		_, err := s.q.FavouritePersonRemove(ctx, queries.FavouritePersonRemoveParams{OrganizationID: org, UserID: u.ID, PersonID: id})
		return wrapErr("unstar a colleague", err)
	}
	if id == u.ID {
		return FieldRefuse(CodeInvalidRequest, "person", "refusal.presence.starSelf")
	}
	known, err := s.knownUsers(ctx, org, []uuid.UUID{id})
	if err != nil {
		return err
	}
	if !known[id] {
		return Refuse(CodeUserNotFound, "refusal.presence.noPerson", map[string]any{"ID": id.String()})
	}
	n, err := s.q.FavouritePersonAdd(ctx, queries.FavouritePersonAddParams{
		OrganizationID: org, UserID: u.ID, PersonID: id, MaxCount: MaxFavourites,
	})
	if err != nil {
		return fmt.Errorf("star a colleague: %w", err)
	}
	if n == 0 {
		return s.refuseFullStars(ctx, u, id)
	}
	return nil
}

// refuseFullStars explains why starring id added nothing: it was starred already (no refusal), or u has
// MaxFavourites of its kind.
func (s *Service) refuseFullStars(ctx context.Context, u User, id uuid.UUID) error {
	f, err := s.FavouritesOf(ctx, u)
	if err != nil {
		return err
	}
	if f.Has(id) {
		return nil
	}
	return Refuse(CodeInvalidRequest, "refusal.presence.tooManyStars", map[string]any{"Max": MaxFavourites})
}

// wrapErr wraps a failed statement's error with what it did, and keeps nil.
func wrapErr(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
