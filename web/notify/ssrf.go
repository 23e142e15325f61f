package notify

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// Webhook endpoints are addresses that admins type, and the service sends requests to them: without a
// check, an admin could make the service call its own database, the cloud's metadata service or anything
// else on its private network (server-side request forgery). Outside development, an endpoint must be
// https and every address its host name resolves to must be public. The check runs when the endpoint is
// saved, for a clear refusal, and again on every connection, in the dialer's Control function: that sees
// the address actually connected to, after DNS, so a name that resolves elsewhere later is still caught.

// Cloud metadata services, which hand out credentials to whoever asks from inside.
var (
	metadataV4 = netip.MustParseAddr("169.254.169.254")
	metadataV6 = netip.MustParseAddr("fd00:ec2::254")
)

// reservedPrefixes are the networks no webhook may reach outside development, besides those netip
// classifies (loopback, private, link-local, multicast, unspecified).
var reservedPrefixes = []struct {
	prefix netip.Prefix
	why    string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a reserved address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a carrier-grade NAT address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "a reserved address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a reserved address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("64:ff9b::/96"), "a NAT64 address"},
	{netip.MustParsePrefix("2002::/16"), "a 6to4 address"},
	{netip.MustParsePrefix("::/96"), "an IPv4-compatible address"},
}

// addressRefusal says why a webhook may not go to a, or returns "" when a is a public address. An
// IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it holds.
func addressRefusal(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a == metadataV4 || a == metadataV6:
		return "the cloud's metadata address"
	case !a.IsValid() || a.IsUnspecified():
		return "an unspecified address"
	case a.IsLoopback():
		return "a loopback address"
	case a.IsPrivate():
		return "a private address"
	case a.IsLinkLocalUnicast():
		return "a link-local address"
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "a multicast address"
	}
	for _, p := range reservedPrefixes {
		if p.prefix.Contains(a) {
			return p.why
		}
	}
	return ""
}

// errRefusedAddress marks a connection the dialer refused to make.
var errRefusedAddress = errors.New("refused address")

// dialControl refuses a connection to an address that is not public. net.Dialer calls it with the
// address it is about to connect to, after resolving the host name.
func dialControl(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %q is not an address", errRefusedAddress, address)
	}
	if why := addressRefusal(ap.Addr()); why != "" {
		return fmt.Errorf("%w: %s is %s", errRefusedAddress, ap.Addr(), why)
	}
	return nil
}

// Bounds of an endpoint's address.
const (
	maxWebhookURL  = 2000 // characters
	resolveTimeout = 5 * time.Second
)

// checkEndpointURL reads an endpoint's address and refuses one the service must not call. Outside
// development it must be https, and its host must be a public address or a name whose every address
// is public. It returns the refusal of the field url (2000), or nil when the address is fine.
func (s *Service) checkEndpointURL(ctx context.Context, raw string) error {
	if raw == "" {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlRequired")
	}
	if !utf8.ValidString(raw) {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlNotUTF8")
	}
	if n := utf8.RuneCountInString(raw); n > maxWebhookURL {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.tooLong", map[string]any{"N": n, "Max": maxWebhookURL})
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlNotAddress")
	case u.Scheme != "https" && u.Scheme != "http":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlNotHTTPS")
	case u.Scheme == "http" && !s.cfg.Dev:
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlPlainHTTP")
	case u.User != nil:
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlUserInfo")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlFragment")
	case u.Hostname() == "":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.urlNoHost")
	}
	if s.cfg.Dev {
		return nil
	}
	return s.hostRefusal(ctx, u.Hostname())
}

// hostRefusal resolves host and refuses it (the field url, 2000) unless every address it has is public.
func (s *Service) hostRefusal(ctx context.Context, host string) error {
	if a, err := netip.ParseAddr(host); err == nil {
		if why := addressRefusal(a); why != "" {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.hostNotPublic",
				map[string]any{"Host": host, "Kind": addressWords(why)})
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := s.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.hostUnknown", map[string]any{"Host": host})
	}
	for _, a := range addrs {
		if why := addressRefusal(a); why != "" {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "url", "refusal.webhooks.hostResolvesNotPublic",
				map[string]any{"Host": host, "Address": a.Unmap().String(), "Kind": addressWords(why)})
		}
	}
	return nil
}

// addressWords is an address that addressRefusal refuses, as it names it ("a loopback address"), as a
// phrase (lang.Phrase) of a refusal's data, in the reader's words.
type addressWords string

func (w addressWords) In(ctx context.Context) string {
	switch w {
	case "the cloud's metadata address":
		return lang.T(ctx, "refusal.webhooks.metadataAddress")
	case "an unspecified address":
		return lang.T(ctx, "refusal.webhooks.unspecifiedAddress")
	case "a loopback address":
		return lang.T(ctx, "refusal.webhooks.loopbackAddress")
	case "a private address":
		return lang.T(ctx, "refusal.webhooks.privateAddress")
	case "a link-local address":
		return lang.T(ctx, "refusal.webhooks.linkLocalAddress")
	case "a multicast address":
		return lang.T(ctx, "refusal.webhooks.multicastAddress")
	case "a reserved address":
		return lang.T(ctx, "refusal.webhooks.reservedAddress")
	case "a carrier-grade NAT address":
		return lang.T(ctx, "refusal.webhooks.cgnatAddress")
	case "a NAT64 address":
		return lang.T(ctx, "refusal.webhooks.nat64Address")
	case "a 6to4 address":
		return lang.T(ctx, "refusal.webhooks.sixToFourAddress")
	case "an IPv4-compatible address":
		return lang.T(ctx, "refusal.webhooks.ipv4CompatibleAddress")
	}
	return string(w)
}

// resolver is the DNS resolver of endpoints' names.
func (s *Service) resolver() *net.Resolver {
	if s.hooks.dns != nil {
		return s.hooks.dns
	}
	return net.DefaultResolver
}
