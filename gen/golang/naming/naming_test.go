package naming

import "testing"

func TestExported(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"snake", "list_items", "ListItems", true},
		{"kebab", "Create-Order", "CreateOrder", true},
		{"camel", "getUser", "GetUser", true},
		{"initialism id", "user_id", "UserID", true},
		{"initialism in camel", "getUserById", "GetUserByID", true},
		{"acronym run", "getHTTPServer", "GetHTTPServer", true},
		{"acronym plural", "listURLs", "ListURLs", true},
		{"lower initialisms", "api_json_url_uuid", "APIJSONURLUUID", true},
		{"all caps word", "USER_NAME", "UserName", true},
		{"dots", "issuing.card", "IssuingCard", true},
		{"keyword", "func", "Func", true},
		{"keyword type", "type", "Type", true},
		{"leading digit", "2fa", "Op2fa", true},
		{"digits inside", "v2010_accounts", "V2010Accounts", true},
		{"accented", "créer", "Créer", true},
		{"no case script", "名前", "Op名前", true},
		{"titlecase letter", "ǅx", "Ǆx", true},
		{"letter number only", "Ⅻ", "", false},
		{"empty", "", "", false},
		{"symbols only", "+-", "", false},
		{"spaces", "  hello world ", "HelloWorld", true},
		{"mixed separators", "a.b-c_d e/f", "ABCDEF", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Exported(tt.in, "Op")
			if got != tt.want || ok != tt.ok {
				t.Errorf("Exported(%q) = %q, %v, want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestUnexported(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"camel", "UserID", "userID"},
		{"acronym", "HTTPServer", "httpServer"},
		{"keyword", "type", "type_"},
		{"predeclared", "string", "string_"},
		{"generated local", "ctx", "ctx_"},
		{"snake", "page_size", "pageSize"},
		{"leading digit", "3d_secure", "v3dSecure"},
		{"header", "X-Request-ID", "xRequestID"},
		{"plural initialism", "IDs", "ids"},
		{"plural initialism first", "URLsByID", "urlsByID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := Unexported(tt.in); got != tt.want || !ok {
				t.Errorf("Unexported(%q) = %q, %v, want %q, true", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestFromPath(t *testing.T) {
	tests := []struct {
		name, method, path, want string
	}{
		{"param", "GET", "/users/{id}", "GetUsersByID"},
		{"nested", "post", "/users/{user_id}/orders", "PostUsersByUserIDOrders"},
		{"root", "DELETE", "/", "DeleteRoot"},
		{"dotted", "GET", "/2010-04-01/Accounts.json", "Get20100401AccountsJSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := FromPath(tt.method, tt.path); got != tt.want || !ok {
				t.Errorf("FromPath(%q, %q) = %q, %v, want %q, true", tt.method, tt.path, got, ok, tt.want)
			}
		})
	}
}
