package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

type statusInfoResponse struct {
	Resource  statusResourceDTO `json:"resource"`
	IsFree    bool              `json:"isFree"`
	FreeUntil *int64            `json:"freeUntil,omitempty"`
}

// StatusInfo is 4.1: GET /api/v1/users/{me|userId}/resources/statusinfo?postercode=.
func (s *Handlers) StatusInfo(c echo.Context) error {
	actor, _, err := s.actingFor(c)
	if err != nil {
		return err
	}
	code, err := posterCodeQuery(c)
	if err != nil {
		return err
	}
	st, err := s.bookings.StatusByPosterCode(c.Request().Context(), actor, code)
	if err != nil {
		return err
	}
	r := st.Resource
	res := statusInfoResponse{
		Resource: statusResourceDTO{
			resourceBase: toResourceBase(r), Floor: ref(r.Floor.ID.String()),
			Subcategory: toSubcategory(r.Subcategory), ResourceRule: toRule(r.Rule, false), Visible: r.Visible,
		},
		IsFree: st.IsFree,
	}
	if st.FreeUntil != nil {
		until := millis(*st.FreeUntil)
		res.FreeUntil = &until
	}
	return c.JSON(http.StatusOK, res)
}
