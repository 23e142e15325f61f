package views

// AdminCatalogue is the catalogue page: the kinds of space, the features resources have, the services
// people order with a booking, and the organization's additional-services switch.
type AdminCatalogue struct {
	Chrome   Chrome
	Notice   string
	Services ServicesSwitch
	Groups   []CatalogueGroup
}

// ServicesSwitch is the organization's additional-services module, on or off.
type ServicesSwitch struct {
	Active  bool
	Saved   string
	Problem *AdminProblem // a refusal, in words
}

// CatalogueGroup is one collection of the catalogue with its items and the form of a new one.
type CatalogueGroup struct {
	Collection, Title, Lead, AddLabel, Empty string
	Items                                    []CatalogueItem
	New                                      CatalogueItem
}

// CatalogueItem is the form of one subcategory, feature or service, its values as typed or as held.
type CatalogueItem struct {
	Collection, ID, ETag string
	New                  bool
	Name                 string
	// Subcategories.
	Category                 string // WORKSTATION or SPACE
	Searchable, HideBookings bool
	// Features and services.
	Email string
	// Services.
	Description                                       string
	ChooseQuantity, ChooseDeliveryTime, AllowComments bool
	DeliveryHours, DeliveryMinutes                    string // the usual delivery, after the start
	CancelHours, CancelMinutes                        string // the latest change or cancellation, before the start
	Summary                                           string // one line that says what the item is
	Saved                                             string
	Problem                                           *AdminProblem
	Open                                              bool
}
