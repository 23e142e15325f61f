package console

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The rules and catalogue pages of the admin console: resource rules, subcategories, features, services
// (reservables) and the organization's additional-services switch. Each object has its own form, which
// reads the object from the layout domain (web/layout) in the import format and saves it back with Put,
// guarded by the ETag the form carries.

const (
	msMinute = int64(time.Minute / time.Millisecond)
	msHour   = int64(time.Hour / time.Millisecond)
	msDay    = 24 * msHour
)

// catalogueWords names the fields of subcategories, features and services as their forms do.
var catalogueWords = map[string]string{
	"name": "Name", "category": "People book", "email": "Contact e-mail", "description": "Description",
	"minimumCancellationMs": "Change or cancel it at least", "standardDeliveryTimeMs": "Usually delivered",
}

// catalogueCollections are the collections the catalogue page edits, in its order.
var catalogueCollections = []layout.Collection{layout.Subcategories, layout.Features, layout.Reservables}

// catalogueGroup is a collection of the catalogue page, with what it says about it in ctx's language.
func catalogueGroup(ctx context.Context, c layout.Collection) views.CatalogueGroup {
	switch c {
	case layout.Subcategories:
		return views.CatalogueGroup{Collection: string(c), Title: lang.T(ctx, "admin.catalogue.kindsTitle"), AddLabel: lang.T(ctx, "admin.catalogue.kindsAdd"),
			Lead:  lang.T(ctx, "admin.catalogue.kindsLead"),
			Empty: lang.T(ctx, "admin.catalogue.kindsEmpty")}
	case layout.Features:
		return views.CatalogueGroup{Collection: string(c), Title: lang.T(ctx, "admin.catalogue.featuresTitle"), AddLabel: lang.T(ctx, "admin.catalogue.featuresAdd"),
			Lead:  lang.T(ctx, "admin.catalogue.featuresLead"),
			Empty: lang.T(ctx, "admin.catalogue.featuresEmpty")}
	}
	return views.CatalogueGroup{Collection: string(c), Title: lang.T(ctx, "admin.catalogue.servicesTitle"), AddLabel: lang.T(ctx, "admin.catalogue.servicesAdd"),
		Lead:  lang.T(ctx, "admin.catalogue.servicesLead"),
		Empty: lang.T(ctx, "admin.catalogue.servicesEmpty")}
}

// catalogueItem shows one object of the catalogue in its form, its summary in ctx's language.
func catalogueItem(ctx context.Context, c layout.Collection, doc json.RawMessage, etag string) (views.CatalogueItem, error) {
	it := views.CatalogueItem{Collection: string(c), ETag: etag}
	switch c {
	case layout.Subcategories:
		var v layout.LayoutSubcategory
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode subcategory: %w", err)
		}
		it.ID, it.Name, it.Category, it.HideBookings = v.ID, v.Name, v.Category, v.HideBookings
		it.Searchable = v.CanBeSearched == nil || *v.CanBeSearched
		switch v.Category {
		case "WORKSTATION":
			it.Summary = lang.T(ctx, "admin.catalogue.desks")
		case "SPACE":
			it.Summary = lang.T(ctx, "admin.catalogue.rooms")
		}
		if !it.Searchable {
			it.Summary += " · " + lang.T(ctx, "admin.catalogue.notSearchable")
		}
	case layout.Features:
		var v layout.LayoutFeature
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode feature: %w", err)
		}
		it.ID, it.Name, it.Email = v.ID, v.Name, v.Email
		it.Summary = cmp.Or(v.Email, lang.T(ctx, "admin.catalogue.noContact"))
	case layout.Reservables:
		var v layout.LayoutReservable
		if err := json.Unmarshal(doc, &v); err != nil {
			return it, fmt.Errorf("decode service: %w", err)
		}
		it.ID, it.Name, it.Description, it.Email = v.ID, v.Name, v.Description, v.Email
		it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments = v.ChooseQuantity, v.ChooseDeliveryTime, v.AllowComments
		it.DeliveryHours = strconv.FormatInt(v.StandardDeliveryTimeMs/msHour, 10)
		it.DeliveryMinutes = strconv.FormatInt(v.StandardDeliveryTimeMs%msHour/msMinute, 10)
		it.CancelHours = strconv.FormatInt(v.MinimumCancellationMs/msHour, 10)
		it.CancelMinutes = strconv.FormatInt(v.MinimumCancellationMs%msHour/msMinute, 10)
		it.Summary = serviceSummary(ctx, v)
	}
	return it, nil
}

// serviceSummary says in a line what people choose when they order a service, until when they can
// cancel it, and whom to contact about it, in ctx's language.
func serviceSummary(ctx context.Context, v layout.LayoutReservable) string {
	var chosen []string
	if v.ChooseQuantity {
		chosen = append(chosen, lang.T(ctx, "admin.catalogue.summaryQuantity"))
	}
	if v.ChooseDeliveryTime {
		chosen = append(chosen, lang.T(ctx, "admin.catalogue.summaryDeliveryTime"))
	}
	if v.AllowComments {
		chosen = append(chosen, lang.T(ctx, "admin.catalogue.summaryComment"))
	}
	s := lang.T(ctx, "admin.catalogue.nothingToChoose")
	if len(chosen) > 0 {
		s = lang.T(ctx, "admin.catalogue.choose", map[string]any{"What": strings.Join(chosen, ", ")})
	}
	if v.MinimumCancellationMs > 0 {
		s += " · " + lang.T(ctx, "admin.catalogue.cancelAhead", map[string]any{
			"Duration": views.DurationWords(ctx, time.Duration(v.MinimumCancellationMs)*time.Millisecond)})
	}
	if v.Email != "" {
		s += " · " + v.Email
	}
	return s
}

// adminCatalogue reads the catalogue page.
func (s *Handlers) adminCatalogue(c echo.Context) (views.AdminCatalogue, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	active, err := s.bookings.AdditionalServicesActive(ctx, actor)
	if err != nil {
		return views.AdminCatalogue{}, err
	}
	p := views.AdminCatalogue{Chrome: s.Chrome(c, lang.T(ctx, "admin.catalogue.title")), Services: views.ServicesSwitch{Active: active}}
	for _, coll := range catalogueCollections {
		objs, err := s.layout.List(ctx, actor, coll)
		if err != nil {
			return views.AdminCatalogue{}, err
		}
		g := catalogueGroup(ctx, coll)
		for _, o := range objs {
			it, err := catalogueItem(ctx, coll, o.JSON, o.ETag)
			if err != nil {
				return views.AdminCatalogue{}, err
			}
			g.Items = append(g.Items, it)
		}
		slices.SortFunc(g.Items, func(a, b views.CatalogueItem) int { return booking.CompareNames(a.Name, b.Name) })
		g.New = views.CatalogueItem{Collection: string(coll), ID: uuid.NewString(), New: true, Category: "WORKSTATION", Searchable: true,
			DeliveryHours: "0", DeliveryMinutes: "0", CancelHours: "0", CancelMinutes: "0"}
		p.Groups = append(p.Groups, g)
	}
	return p, nil
}

// Catalogue is GET /admin/catalogue.
func (s *Handlers) Catalogue(c echo.Context) error {
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	if id, msg := s.savedFlash(c); id == "additional-services" {
		p.Services.Saved = msg
	} else if !confirmCatalogueItem(&p, id, msg) {
		p.Notice = msg
	}
	return kit.Render(c, http.StatusOK, views.AdminCataloguePage(p))
}

// confirmCatalogueItem opens the item id and puts the confirmation msg in it, and reports whether the
// page has the item.
func confirmCatalogueItem(p *views.AdminCatalogue, id, msg string) bool {
	for gi := range p.Groups {
		for i := range p.Groups[gi].Items {
			if it := &p.Groups[gi].Items[i]; id != "" && it.ID == id {
				it.Saved, it.Open = msg, true
				return true
			}
		}
	}
	return false
}

// readCatalogueForm reads the form of a catalogue item into it (what was typed) and into doc, the object
// current holds with the form's values in place of its own; current is nil for a new object. A refusal is
// in ctx's language.
func readCatalogueForm(ctx context.Context, form url.Values, it *views.CatalogueItem, org uuid.UUID, current json.RawMessage) (any, error) {
	it.Name = textField(form, "name")
	if it.Name == "" {
		return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.catalogue.refuseName"))
	}
	if len(it.Name) > maxNameLength {
		return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.rules.refuseNameLength", map[string]any{"Max": maxNameLength}))
	}
	decodeCurrent := func(v any) error {
		if current == nil {
			return nil
		}
		return json.Unmarshal(current, v)
	}
	switch layout.Collection(it.Collection) {
	case layout.Subcategories:
		it.Category, it.Searchable, it.HideBookings = form.Get("category"), form.Get("searchable") != "", form.Get("hideBookings") != ""
		var v layout.LayoutSubcategory
		if err := decodeCurrent(&v); err != nil {
			return nil, fmt.Errorf("decode subcategory: %w", err)
		}
		if it.Category != "WORKSTATION" && it.Category != "SPACE" {
			return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.catalogue.refuseCategory"))
		}
		searchable := it.Searchable
		v.ID, v.OrganizationID, v.Name, v.Category, v.CanBeSearched, v.HideBookings = it.ID, org.String(), it.Name, it.Category, &searchable, it.HideBookings
		return v, nil
	case layout.Features:
		it.Email = textField(form, "email")
		var v layout.LayoutFeature
		if err := decodeCurrent(&v); err != nil {
			return nil, fmt.Errorf("decode feature: %w", err)
		}
		if len(it.Email) > 254 || (it.Email != "" && !strings.Contains(it.Email, "@")) {
			return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.catalogue.refuseEmail"))
		}
		v.ID, v.OrganizationID, v.Name, v.Email = it.ID, org.String(), it.Name, it.Email
		return v, nil
	}
	it.Description = textField(form, "description")
	it.Email = textField(form, "email") // the import checks it and says what is wrong
	it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments = form.Get("chooseQuantity") != "", form.Get("chooseDeliveryTime") != "", form.Get("allowComments") != ""
	it.DeliveryHours, it.DeliveryMinutes = form.Get("deliveryHours"), form.Get("deliveryMinutes")
	it.CancelHours, it.CancelMinutes = form.Get("cancelHours"), form.Get("cancelMinutes")
	var v layout.LayoutReservable
	if err := decodeCurrent(&v); err != nil {
		return nil, fmt.Errorf("decode service: %w", err)
	}
	if len(it.Description) > 1000 {
		return nil, kit.RefuseForm("%s", lang.T(ctx, "admin.catalogue.refuseDescription"))
	}
	v.ID, v.OrganizationID, v.Name, v.Description, v.Email = it.ID, org.String(), it.Name, it.Description, it.Email
	v.ChooseQuantity, v.ChooseDeliveryTime, v.AllowComments = it.ChooseQuantity, it.ChooseDeliveryTime, it.AllowComments
	v.StandardDeliveryTimeMs, v.MinimumCancellationMs = 0, 0
	for _, n := range []struct {
		name, label string
		max, unit   int64
		into        *int64
	}{
		{"deliveryHours", lang.T(ctx, "admin.catalogue.fieldDeliveryHours"), 24, msHour, &v.StandardDeliveryTimeMs},
		{"deliveryMinutes", lang.T(ctx, "admin.catalogue.fieldDeliveryMinutes"), 59, msMinute, &v.StandardDeliveryTimeMs},
		{"cancelHours", lang.T(ctx, "admin.catalogue.fieldCancelHours"), 8784, msHour, &v.MinimumCancellationMs},
		{"cancelMinutes", lang.T(ctx, "admin.catalogue.fieldCancelMinutes"), 59, msMinute, &v.MinimumCancellationMs},
	} {
		x, err := wholeNumber(ctx, form, n.name, n.label, n.max)
		if err != nil {
			return nil, err
		}
		*n.into += x * n.unit
	}
	return v, nil
}

// SaveCatalogueItem is POST /admin/catalogue/{collection}/{id}: creates or updates a subcategory,
// feature or service. A refusal, or an item someone else changed since the form was loaded, is shown in
// its form; with htmx only the item is answered. A save is confirmed in the item: with htmx a new item
// answers with its whole group.
func (s *Handlers) SaveCatalogueItem(c echo.Context) error {
	coll := layout.Collection(c.Param("collection"))
	if !slices.Contains(catalogueCollections, coll) {
		return echo.ErrNotFound
	}
	id, err := pathID(c, "id")
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("admin.common.formUnreadable", map[string]any{"Error": err})
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	ifMatch := form.Get("etag")
	typed := views.CatalogueItem{Collection: string(coll), ID: id.String(), ETag: ifMatch, New: ifMatch == ""}
	var current json.RawMessage
	if !typed.New {
		o, err := s.layout.Get(ctx, actor, coll, id)
		if err != nil {
			return err
		}
		current = o.JSON
	}
	doc, err := readCatalogueForm(ctx, form, &typed, actor.OrganizationID, current)
	var saved layout.Object
	if err == nil {
		body, merr := json.Marshal(doc)
		if merr != nil {
			return fmt.Errorf("encode %s: %w", coll, merr)
		}
		saved, _, err = s.layout.Put(ctx, actor, coll, id, body, ifMatch)
	}
	if err != nil {
		prob, code, perr := refusal(c, err, "item", catalogueWords)
		if perr != nil {
			return perr
		}
		it := typed
		if code == http.StatusPreconditionFailed {
			o, gerr := s.layout.Get(ctx, actor, coll, id)
			if gerr != nil {
				return gerr
			}
			if it, gerr = catalogueItem(ctx, coll, o.JSON, o.ETag); gerr != nil {
				return gerr
			}
		}
		it.Problem, it.Open = prob, true
		return s.answerCatalogueItem(c, code, it)
	}
	it, err := catalogueItem(ctx, coll, saved.JSON, saved.ETag)
	if err != nil {
		return err
	}
	msg := lang.T(ctx, "admin.catalogue.saved", map[string]any{"Name": strconvQuote(ctx, it.Name)})
	if typed.New {
		msg = lang.T(ctx, "admin.catalogue.added", map[string]any{"Name": strconvQuote(ctx, it.Name)})
	}
	switch {
	case !kit.IsHTMX(c):
		return s.redirectSaved(c, "/admin/catalogue", nil, it.ID, it.Collection+"-"+it.ID, msg)
	case !typed.New:
		it.Saved, it.Open = msg, true
		return kit.Render(c, http.StatusOK, views.CatalogueItemView(it))
	}
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	confirmCatalogueItem(&p, it.ID, msg)
	for _, g := range p.Groups {
		if g.Collection == it.Collection {
			swapSection(c, "#"+g.Collection)
			return kit.Render(c, http.StatusOK, views.CatalogueGroupView(g))
		}
	}
	return fmt.Errorf("catalogue: no group %s", it.Collection)
}

// answerCatalogueItem answers a catalogue form that was not saved: the item alone for htmx, otherwise the
// whole page with this form in place of the item's.
func (s *Handlers) answerCatalogueItem(c echo.Context, status int, it views.CatalogueItem) error {
	if kit.IsHTMX(c) {
		return kit.Render(c, status, views.CatalogueItemView(it))
	}
	p, err := s.adminCatalogue(c)
	if err != nil {
		return err
	}
	for gi := range p.Groups {
		g := &p.Groups[gi]
		if g.Collection != it.Collection {
			continue
		}
		if it.New {
			g.New = it
		}
		for i := range g.Items {
			if g.Items[i].ID == it.ID {
				g.Items[i] = it
			}
		}
	}
	return kit.Render(c, status, views.AdminCataloguePage(p))
}

// AdditionalServices is POST /admin/catalogue/additional-services (active=true|false): turns the
// organization's additional services on or off.
func (s *Handlers) AdditionalServices(c echo.Context) error {
	var active bool
	switch c.FormValue("active") {
	case "true":
		active = true
	case "false":
	default:
		return kit.FieldRefuse("active", "admin.common.chooseTrueOrFalse")
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	if err := s.bookings.SetAdditionalServices(ctx, actor, active); err != nil {
		return err
	}
	sw := views.ServicesSwitch{Active: active, Saved: lang.T(ctx, "admin.catalogue.servicesOff")}
	if active {
		sw.Saved = lang.T(ctx, "admin.catalogue.servicesOn")
	}
	if !kit.IsHTMX(c) {
		return s.redirectSaved(c, "/admin/catalogue", nil, "additional-services", "additional-services", sw.Saved)
	}
	return kit.Render(c, http.StatusOK, views.ServicesSwitchView(sw))
}
