package bookingtest

import (
	"context"
	"net"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"
)

// DNS is a real DNS server on loopback that answers the TXT records a test sets, and NXDOMAIN for every
// other name. The domain checks ask it through Resolver.
type DNS struct {
	addr string
	mu   sync.Mutex
	txt  map[string][]string     // by fully qualified lower-case name
	ips  map[string][]netip.Addr // A and AAAA records, the same way
	// Fail, when set, makes the server answer SERVFAIL to every question.
	fail bool
}

// NewDNS starts a DNS server on a free UDP port of 127.0.0.1 until the test ends.
func NewDNS(t testing.TB) *DNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen for DNS: %v", err)
	}
	d := &DNS{addr: pc.LocalAddr().String(), txt: map[string][]string{}, ips: map[string][]netip.Addr{}}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(d.answer), NotifyStartedFunc: func() { close(started) }}
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	return d
}

// SetTXT makes name (a domain, with or without the final dot) answer these TXT records.
func (d *DNS) SetTXT(name string, records ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.txt[dns.Fqdn(strings.ToLower(name))] = records
}

// SetAddresses makes name answer these addresses (IPv4 as A records, IPv6 as AAAA).
func (d *DNS) SetAddresses(name string, addrs ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, a := range addrs {
		n := dns.Fqdn(strings.ToLower(name))
		d.ips[n] = append(d.ips[n], netip.MustParseAddr(a))
	}
}

// SetFailing makes the server answer SERVFAIL (true) or answer again (false).
func (d *DNS) SetFailing(fail bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.fail = fail
}

// Resolver returns a resolver that asks this server only.
func (d *DNS) Resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dialer net.Dialer
		return dialer.DialContext(ctx, "udp", d.addr)
	}}
}

func (d *DNS) answer(w dns.ResponseWriter, r *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(r)
	q := r.Question[0]
	d.mu.Lock()
	fail := d.fail
	records, known := d.txt[strings.ToLower(q.Name)]
	addrs, named := d.ips[strings.ToLower(q.Name)]
	d.mu.Unlock()
	hdr := func(t uint16) dns.RR_Header {
		return dns.RR_Header{Name: q.Name, Rrtype: t, Class: dns.ClassINET, Ttl: 60}
	}
	switch {
	case fail:
		m.Rcode = dns.RcodeServerFailure
	case !known && !named:
		m.Rcode = dns.RcodeNameError
	case q.Qtype == dns.TypeTXT:
		for _, rec := range records {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: hdr(dns.TypeTXT), Txt: []string{rec}})
		}
	}
	for _, a := range addrs {
		switch {
		case q.Qtype == dns.TypeA && a.Is4():
			m.Answer = append(m.Answer, &dns.A{Hdr: hdr(dns.TypeA), A: a.AsSlice()})
		case q.Qtype == dns.TypeAAAA && a.Is6():
			m.Answer = append(m.Answer, &dns.AAAA{Hdr: hdr(dns.TypeAAAA), AAAA: a.AsSlice()})
		}
	}
	_ = w.WriteMsg(m)
}
