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
// is public. It returns the refusal in words, or "" when the address is fine.
func (s *Service) checkEndpointURL(ctx context.Context, raw string) string {
	if raw == "" {
		return "is required, such as https://example.com/webhooks"
	}
	if !utf8.ValidString(raw) {
		return "holds bytes that are not UTF-8"
	}
	if n := utf8.RuneCountInString(raw); n > maxWebhookURL {
		return fmt.Sprintf("has %d characters; at most %d", n, maxWebhookURL)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "":
		return "is not an address such as https://example.com/webhooks"
	case u.Scheme != "https" && u.Scheme != "http":
		return "must start with https://"
	case u.Scheme == "http" && !s.cfg.Dev:
		return "must start with https://; plain http is not allowed"
	case u.User != nil:
		return "must not hold a user name or password"
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "must not hold a fragment (#…)"
	case u.Hostname() == "":
		return "has no host name"
	}
	if s.cfg.Dev {
		return ""
	}
	return s.hostRefusal(ctx, u.Hostname())
}

// hostRefusal resolves host and refuses it unless every address it has is public.
func (s *Service) hostRefusal(ctx context.Context, host string) string {
	if a, err := netip.ParseAddr(host); err == nil {
		if why := addressRefusal(a); why != "" {
			return fmt.Sprintf("%s is %s; webhooks go to public addresses only", host, why)
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	addrs, err := s.resolver().LookupNetIP(ctx, "ip", host)
	if err != nil || len(addrs) == 0 {
		return fmt.Sprintf("cannot find the address of %s; check the name", host)
	}
	for _, a := range addrs {
		if why := addressRefusal(a); why != "" {
			return fmt.Sprintf("%s resolves to %s, %s; webhooks go to public addresses only", host, a.Unmap(), why)
		}
	}
	return ""
}

// resolver is the DNS resolver of endpoints' names.
func (s *Service) resolver() *net.Resolver {
	if s.hooks.dns != nil {
		return s.hooks.dns
	}
	return net.DefaultResolver
}
