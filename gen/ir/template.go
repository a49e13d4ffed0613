package ir

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
