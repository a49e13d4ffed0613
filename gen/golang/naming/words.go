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
		if wordBreak(rs, i) {
			flush(i)
			start = i
		}
	}
	flush(len(rs))
	return out
}

// wordBreak reports whether a word starts at rs[i], a letter or digit
// after another: at a lower-case letter followed by a capital ("getUser"),
// at the last capital of an acronym followed by a lower-case letter
// ("HTTPServer") unless it only pluralizes the acronym ("IDs", "URLs"),
// and at a capital after a digit ("v2Beta").
func wordBreak(rs []rune, i int) bool {
	prev, r := rs[i-1], rs[i]
	switch {
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
		plural := rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2]))
		return !plural
	case unicode.IsDigit(prev) && unicode.IsLetter(r) && unicode.IsUpper(r):
		return true
	}
	return false
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
