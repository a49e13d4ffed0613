package ir

import "strings"

// CutQuery splits an HTTP path template ([Operation.Path]), without its
// fragment (see [CutFragment]), at its first "?" outside a template
// variable: the path, and the fixed query written after it
// ("/responses?beta=true" gives "/responses" and "beta=true"), which a
// client sends with every request of the operation. found reports
// whether there is a "?".
func CutQuery(template string) (path, query string, found bool) {
	template, _, _ = CutFragment(template)
	inVar := false
	for i := 0; i < len(template); i++ {
		switch template[i] {
		case '{':
			inVar = true
		case '}':
			inVar = false
		case '?':
			if !inVar {
				return template[:i], template[i+1:], true
			}
		}
	}
	return template, "", false
}

// CutFragment splits an HTTP path template at its first "#" outside a
// template variable: what a request carries, and the fragment, which no
// request carries ("/tags/{arn}#tagKeys", as generated specs write
// operations that differ in their query parameters, gives "/tags/{arn}"
// and "tagKeys"). found reports whether there is a "#".
func CutFragment(template string) (rest, fragment string, found bool) {
	inVar := false
	for i := 0; i < len(template); i++ {
		switch template[i] {
		case '{':
			inVar = true
		case '}':
			inVar = false
		case '#':
			if !inVar {
				return template[:i], template[i+1:], true
			}
		}
	}
	return template, "", false
}

// QueryVar is a pair of the query of a path template whose value is a
// template variable ("lat={lat}" in "/alerts?lat={lat}&lon={lon}"): the
// client sends the value of the parameter named Var under the key Key.
type QueryVar struct {
	Key string // the key as written, a fixed query text without "{" or "}"
	Var string // the template variable's name
}

// TemplateQuery splits the query of a path template (see [CutQuery]) into
// its fixed pairs, joined by "&" as written ("beta=true"), and its pairs
// whose value is a template variable ("lat={lat}"), in order. ok is false
// when a pair is neither: a variable in a key or beside other text in a
// value ("{key}=1", "q=a{b}"), or an unbalanced brace.
func TemplateQuery(query string) (fixed string, vars []QueryVar, ok bool) {
	var kept []string
	for pair := range strings.SplitSeq(query, "&") {
		if !strings.ContainsAny(pair, "{}") {
			kept = append(kept, pair)
			continue
		}
		key, value, _ := strings.Cut(pair, "=")
		name, isVar := strings.CutPrefix(value, "{")
		name, closed := strings.CutSuffix(name, "}")
		if key == "" || strings.ContainsAny(key, "{}") || !isVar || !closed || name == "" || strings.ContainsAny(name, "{}") {
			return "", nil, false
		}
		vars = append(vars, QueryVar{Key: key, Var: name})
	}
	return strings.Join(kept, "&"), vars, true
}
