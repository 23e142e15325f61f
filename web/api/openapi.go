package api

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
)

// OpenAPIYAML is the OpenAPI 3.1 document of everything under /api/v1. The API tests validate every
// response they get against it, so it cannot drift from the code.
//
//go:embed openapi.yaml
var OpenAPIYAML []byte

// openAPIJSON is the document as served: loaded, checked and written as JSON once.
var openAPIJSON = sync.OnceValues(func() ([]byte, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(OpenAPIYAML)
	if err != nil {
		return nil, fmt.Errorf("load openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate openapi.yaml: %w", err)
	}
	return json.Marshal(doc)
})

// OpenAPI is GET /api/v1/openapi.json.
func (s *Handlers) OpenAPI(c echo.Context) error {
	doc, err := openAPIJSON()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, doc)
}
