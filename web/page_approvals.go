package web

import "github.com/labstack/echo/v4"

func (s *Server) pageApprovals(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) pageDecide(c echo.Context) error    { return echo.ErrNotImplemented }
