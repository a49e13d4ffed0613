package openapi

import "testing"

// TestNothingToSend: an optional form body whose schema allows no
// property is no body at all; one that is required, allows other
// properties, or is JSON stays a body.
func TestNothingToSend(t *testing.T) {
	tests := []struct {
		name, body string
		want       bool
	}{
		{name: "closed empty form", want: false, body: `
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {}, additionalProperties: false}`},
		{name: "closed empty multipart", want: false, body: `
      requestBody:
        content:
          multipart/form-data:
            schema: {type: object, additionalProperties: false}`},
		{name: "required", want: true, body: `
      requestBody:
        required: true
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {}, additionalProperties: false}`},
		{name: "open object", want: true, body: `
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {}}`},
		{name: "with a property", want: true, body: `
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, properties: {a: {type: string}}, additionalProperties: false}`},
		{name: "JSON", want: true, body: `
      requestBody:
        content:
          application/json:
            schema: {type: object, properties: {}, additionalProperties: false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    post:
      operationId: postA` + tt.body + `
      responses:
        "204": {description: done}
`
			svc, _ := buildString(t, spec, BuildOptions{})
			if got := svc.Operations[0].Body != nil; got != tt.want {
				t.Errorf("has a body = %v, want %v", got, tt.want)
			}
		})
	}
}
