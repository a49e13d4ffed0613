package policyspec

import (
	"strings"
	"unicode"
)

// suggest returns the candidate nearest to word, or "" when none is near
// enough to be a likely typo. Case and underscores are ignored, a swap of
// two letters counts as one edit, a candidate also matches by its last
// camelCase words ("retries" is near "maxRetries"), and a plural word by
// its singular ("retries" is near "retry").
func suggest(word string, candidates []string) string {
	w := normalize(word)
	if len(w) > 64 {
		return ""
	}
	forms := []string{w}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		forms = append(forms, w[:len(w)-3]+"y")
	case strings.HasSuffix(w, "s") && len(w) > 3:
		forms = append(forms, w[:len(w)-1])
	}
	best, bestDist := "", -1
	for _, c := range candidates {
		for _, form := range suffixes(c) {
			for _, wf := range forms {
				d := editDistance(wf, normalize(form))
				if bestDist < 0 || d < bestDist {
					best, bestDist = c, d
				}
			}
		}
	}
	limit := max(2, len([]rune(w))/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return best
}

func normalize(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }

// suffixes returns s and each tail of s starting at an upper-case letter:
// "maxRetries" gives "maxRetries" and "Retries".
func suffixes(s string) []string {
	out := []string{s}
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			out = append(out, s[i:])
		}
	}
	return out
}

// editDistance is the optimal string alignment distance between a and b,
// in runes: insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
