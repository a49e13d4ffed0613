package naming

import (
	"unicode"
	"unicode/utf8"
)

// words splits s into words: runs of letters and digits, broken at every
// other character and at case changes ("getHTTPServer2fa" → "get", "HTTP",
// "Server2fa").
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			out = append(out, string(rs[start:end]))
		}
		start = -1
	}
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		prev := rs[i-1]
		switch {
		case unicode.IsLower(prev) && unicode.IsUpper(r):
			// "getUser": break before the upper-case letter.
			flush(i)
			start = i
		case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
			// "HTTPServer": the last capital starts the next word, unless
			// it only pluralizes the acronym ("IDs", "URLs").
			if rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2])) {
				continue
			}
			flush(i)
			start = i
		case unicode.IsDigit(prev) && unicode.IsLetter(r) && unicode.IsUpper(r):
			// "v2Beta": break before a capital after a digit.
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// capitalize writes one word in Go style: a known initialism in upper case
// (with a plural "s" kept lower: "IDs"), an all-capital word in title case
// ("USER" → "User"), anything else with its first letter upper-cased.
func capitalize(w string) string {
	if up := upper(w); initialisms[up] {
		return up
	}
	if n := len(w); n > 1 && w[n-1] == 's' && initialisms[upper(w[:n-1])] {
		return upper(w[:n-1]) + "s"
	}
	r, size := utf8.DecodeRuneInString(w)
	rest := w[size:]
	if isAllUpper(rest) {
		rest = lower(rest)
	}
	return string(unicode.ToUpper(r)) + rest
}

func isAllUpper(s string) bool {
	letters := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsLetter(r) {
			letters = true
		}
	}
	return letters
}

func upper(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = unicode.ToUpper(r)
	}
	return string(rs)
}

func lower(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = unicode.ToLower(r)
	}
	return string(rs)
}
