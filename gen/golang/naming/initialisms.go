package naming

// initialisms are written in upper case inside identifiers, as in the Go
// standard library and golint's list.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true,
	"DNS": true, "EOF": true, "GUID": true, "HTML": true, "HTTP": true,
	"HTTPS": true, "ID": true, "IP": true, "JSON": true, "JWT": true,
	"LHS": true, "OS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SKU": true, "SLA": true, "SMTP": true, "SQL": true,
	"SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true,
	"UI": true, "UID": true, "URI": true, "URL": true, "UTF8": true,
	"UUID": true, "VM": true, "XML": true, "XMPP": true, "XSRF": true,
	"XSS": true,
}
