module github.com/resilientgo/resilient/runtime

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/sony/gobreaker/v2 v2.4.0
	go.uber.org/goleak v1.3.0
	golang.org/x/time v0.16.0
)
