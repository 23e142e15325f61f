package notify

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
)

// ssrfNames are the host names the tests' DNS server knows.
var ssrfNames = map[string][]string{
	"public.test":   {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
	"loopback.test": {"127.0.0.1"},
	"mixed.test":    {"93.184.216.34", "::1"},
	"private.test":  {"10.1.2.3"},
	"metadata.test": {"169.254.169.254"},
}

func TestAddressRefusal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		addr string
		want string // "" for a public address
	}{
		{"93.184.216.34", ""},
		{"2606:2800:220:1:248:1893:25c8:1946", ""},
		{"127.0.0.1", "a loopback address"},
		{"127.9.9.9", "a loopback address"},
		{"::1", "a loopback address"},
		{"10.0.0.1", "a private address"},
		{"172.16.5.4", "a private address"},
		{"192.168.1.1", "a private address"},
		{"fc00::1", "a private address"},
		{"fd12:3456::1", "a private address"},
		{"169.254.1.1", "a link-local address"},
		{"fe80::1", "a link-local address"},
		{"100.64.0.1", "a carrier-grade NAT address"},
		{"100.127.255.254", "a carrier-grade NAT address"},
		{"169.254.169.254", "the cloud's metadata address"},
		{"fd00:ec2::254", "the cloud's metadata address"},
		{"0.0.0.0", "an unspecified address"},
		{"::", "an unspecified address"},
		{"224.0.0.1", "a multicast address"},
		{"ff02::1", "a multicast address"},
		{"255.255.255.255", "a reserved address"},
		{"::ffff:127.0.0.1", "a loopback address"},
		{"::ffff:10.0.0.1", "a private address"},
		{"::ffff:169.254.169.254", "the cloud's metadata address"},
		{"64:ff9b::a00:1", "a NAT64 address"},
	} {
		if got := addressRefusal(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("addressRefusal(%s) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

func TestEndpointAddressOutsideDev(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, false)
	hb.svc.hooks.dns = newDNS(t, ssrfNames).Resolver()
	for _, tc := range []struct {
		url  string
		want string // words of the refusal; "" when accepted
	}{
		{"http://127.0.0.1", "https"},
		{"http://[::1]", "https"},
		{"http://169.254.169.254", "https"},
		{"http://10.0.0.1", "https"},
		{"http://public.test/hooks", "https"},
		{"https://127.0.0.1/hooks", "a loopback address"},
		{"https://[::1]:8443/hooks", "a loopback address"},
		{"https://169.254.169.254/latest/meta-data/", "the cloud's metadata address"},
		{"https://10.0.0.1/", "a private address"},
		{"https://[::ffff:127.0.0.1]/", "a loopback address"},
		{"https://[fd00:ec2::254]/", "the cloud's metadata address"},
		{"https://100.64.0.1/", "a carrier-grade NAT address"},
		{"https://0.0.0.0/", "an unspecified address"},
		{"https://loopback.test/hooks", "loopback.test resolves to 127.0.0.1, a loopback address"},
		{"https://mixed.test/hooks", "mixed.test resolves to ::1, a loopback address"},
		{"https://private.test/hooks", "a private address"},
		{"https://metadata.test/", "the cloud's metadata address"},
		{"https://nowhere.test/hooks", "cannot find the address of nowhere.test"},
		{"https://public.test/hooks", ""},
		{"https://93.184.216.34:8443/hooks?x=1", ""},
	} {
		t.Run(url.PathEscape(tc.url), func(t *testing.T) {
			_, _, err := hb.svc.CreateWebhookEndpoint(t.Context(), hb.adam, WebhookEndpointChange{URL: &tc.url, EventTypes: []string{"booking.created"}})
			if tc.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			var be *booking.Error
			if !errors.As(err, &be) || be.Field != "url" || !strings.Contains(be.Message, tc.want) {
				t.Errorf("err = %v, want a refusal of url saying %q", err, tc.want)
			}
		})
	}
}

func TestEndpointAddressInDev(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	for _, u := range []string{"http://127.0.0.1:8080/hooks", "http://[::1]/", "http://10.0.0.1/", "http://localhost:9000/"} {
		if _, _, err := hb.svc.CreateWebhookEndpoint(t.Context(), hb.adam, WebhookEndpointChange{URL: &u, EventTypes: []string{"booking.created"}}); err != nil {
			t.Errorf("%s refused in development: %v", u, err)
		}
	}
}

// TestDialerRefusesPrivateAddresses checks the check made as each delivery connects: an address that
// was public when it was saved and is not now, or a name that resolves elsewhere now, gets nothing.
func TestDialerRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, false)
	hb.svc.hooks.dns = newDNS(t, ssrfNames).Resolver()
	var hits atomic.Int32
	rc := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { hits.Add(1) }))
	t.Cleanup(rc.Close)
	port := rc.URL[strings.LastIndex(rc.URL, ":"):]

	for _, u := range []string{rc.URL, "https://loopback.test" + port + "/", "https://[::ffff:127.0.0.1]" + port + "/"} {
		res, err := hb.svc.webhookClient().Post(u, "application/json", bytes.NewReader([]byte("{}")))
		if err == nil {
			res.Body.Close()
		}
		if !errors.Is(err, errRefusedAddress) {
			t.Errorf("POST %s: %v, want the dialer to refuse it", u, err)
		}
	}

	// A delivery to an endpoint stored before its name moved to loopback fails, and is recorded so.
	ep := hb.insertEndpoint(t, "https://loopback.test"+port+"/hooks")
	hb.start(t)
	hb.book(t, 0)
	ds := hb.deliveries(t, ep, "the refused try", func(ds []WebhookDelivery) bool { return len(ds) > 0 })
	if ds[0].Outcome != "failed" || ds[0].Status != 0 || !strings.Contains(ds[0].Error, "127.0.0.1 is a loopback address") {
		t.Errorf("delivery = %+v, want a failed try refused at 127.0.0.1", ds[0])
	}
	if hits.Load() != 0 {
		t.Errorf("the receiver got %d requests, want none", hits.Load())
	}
}
