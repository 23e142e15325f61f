package web

import "github.com/labstack/echo/v4"

func (s *Server) pageMyBookings(c echo.Context) error    { return echo.ErrNotImplemented }
func (s *Server) pageBooking(c echo.Context) error       { return echo.ErrNotImplemented }
func (s *Server) pageCheckIn(c echo.Context) error       { return echo.ErrNotImplemented }
func (s *Server) pageCheckOut(c echo.Context) error      { return echo.ErrNotImplemented }
func (s *Server) pageCancel(c echo.Context) error        { return echo.ErrNotImplemented }
func (s *Server) pageChangeBooking(c echo.Context) error { return echo.ErrNotImplemented }
func (s *Server) pageOrderServices(c echo.Context) error { return echo.ErrNotImplemented }
