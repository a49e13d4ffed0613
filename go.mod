module github.com/resilientgo/resilient

go 1.26.0

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/getkin/kin-openapi v0.153.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/sony/gobreaker/v2 v2.4.0 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/time v0.16.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
