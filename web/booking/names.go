package booking

import (
	"strings"
	"sync"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// collators hold the collators CompareNames uses: a collator is not safe for concurrent use.
var collators = sync.Pool{New: func() any { return collate.New(language.Und, collate.Numeric) }}

// CompareNames orders names as people read them, as the database's natural_names collation does (ICU's
// root order with numbers compared as numbers): "Desk 2" before "Desk 10", "desk" beside "Desk",
// "Velázquez" beside "Velazquez". Names that collate alike are ordered by their bytes, so that the order
// is total. It returns -1, 0 or +1.
func CompareNames(a, b string) int {
	c := collators.Get().(*collate.Collator)
	defer collators.Put(c)
	if r := c.CompareString(a, b); r != 0 {
		return r
	}
	return strings.Compare(a, b)
}
