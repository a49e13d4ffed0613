package openapi

import (
	"fmt"
	"mime"
	"strings"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Rules of names the client sends as written.
const (
	// ruleHeaderName: a header or cookie parameter whose name is not an
	// HTTP token (RFC 9110 §5.1, RFC 6265 §4.1.1): with a CR, LF, ":",
	// ";", space or any other separator it would break the request or
	// inject another header.
	ruleHeaderName = diag.RuleHeaderName
	// ruleMediaType: a media type the client sends (a request body's,
	// or a success response's in Accept) that is not a valid media type
	// of printable ASCII.
	ruleMediaType = diag.RuleMediaType
	// ruleMediaTypeIgnored: an invalid media type beside valid ones, left
	// out.
	ruleMediaTypeIgnored = diag.RuleMediaTypeIgnored
)

// checkWireName reports a header or cookie parameter whose name the client
// could not send as written.
func (b *builder) checkWireName(p *ir.Param) {
	if (p.In != ir.InHeader && p.In != ir.InCookie) || isToken(p.Name) {
		return
	}
	b.diags.Errorf(p.Location, ruleHeaderName,
		fmt.Sprintf("%s parameter name %q is not an HTTP token; sent as written it would break the request", p.In, p.Name),
		"use only letters, digits and !#$%&'*+-.^_`|~ in the name")
}

// checkMediaTypes returns the contents the client may send in
// Content-Type or Accept: those with a valid media type, the others left
// out with a warning (W-MEDIA-TYPE). An empty media type names nothing
// the client could send, and is always left out, even when nothing is
// left. When none is valid and some is not empty, each invalid one is an
// error, since the client would have to send one as written, and all
// are returned.
func (b *builder) checkMediaTypes(contents []*ir.Content) []*ir.Content {
	var valid, named []*ir.Content
	for _, c := range contents {
		if validMediaType(c.MediaType) {
			valid = append(valid, c)
		}
		if !emptyMediaType(c.MediaType) {
			named = append(named, c)
		}
	}
	const fix = `write type/subtype with optional "; name=value" parameters, such as "application/json; charset=utf-8"`
	for _, c := range contents {
		switch {
		case validMediaType(c.MediaType):
		case emptyMediaType(c.MediaType):
			msg := fmt.Sprintf("media type %q is empty; the client leaves its entry out", c.MediaType)
			switch {
			case len(valid) > 0:
				msg += fmt.Sprintf(" and uses %q", valid[0].MediaType)
			case len(named) == 0:
				msg += ", and with no other entry there is no body"
			}
			b.diags.Warnf(c.Location, ruleMediaTypeIgnored, msg,
				`name the media type of the entry, such as "application/json"`)
		case len(valid) == 0:
			b.diags.Errorf(c.Location, ruleMediaType,
				fmt.Sprintf("media type %q is not a valid media type; the client would send it as written in a header", c.MediaType), fix)
		default:
			b.diags.Warnf(c.Location, ruleMediaTypeIgnored,
				fmt.Sprintf("media type %q is not a valid media type; the client leaves it out and uses %q", c.MediaType, valid[0].MediaType), fix)
		}
	}
	if len(valid) == 0 {
		return named
	}
	return valid
}

// emptyMediaType reports whether mt names no media type at all: empty,
// or only spaces.
func emptyMediaType(mt string) bool { return strings.TrimSpace(mt) == "" }

// isToken reports whether s is an RFC 9110 token.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// validMediaType reports whether mt is printable ASCII and parses as a
// media type with parameters.
func validMediaType(mt string) bool {
	for i := 0; i < len(mt); i++ {
		if c := mt[i]; c < ' ' || c >= 0x7f {
			return false
		}
	}
	_, _, err := mime.ParseMediaType(mt)
	return err == nil
}
